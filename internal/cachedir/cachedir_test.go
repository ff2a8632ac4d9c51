package cachedir

import "testing"

// TestDefaultOutsideBuild: the cache lives outside any project, where the
// environment says, in HIPGEN_CACHE_DIR, XDG_CACHE_HOME, HOME order.
func TestDefaultOutsideBuild(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if d, _ := Default(get); d != "/home/u/.cache/hipgen" {
		t.Errorf("HOME only: %s", d)
	}
	env["XDG_CACHE_HOME"] = "/xdg"
	if d, _ := Default(get); d != "/xdg/hipgen" {
		t.Errorf("XDG_CACHE_HOME: %s", d)
	}
	env["HIPGEN_CACHE_DIR"] = "/explicit"
	if d, _ := Default(get); d != "/explicit" {
		t.Errorf("HIPGEN_CACHE_DIR: %s", d)
	}
}
