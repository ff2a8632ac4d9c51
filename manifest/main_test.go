package manifest_test

import (
	"os"
	"testing"

	"github.com/hipgen/hipgen/internal/testtool"
	"github.com/hipgen/hipgen/manifest/jsonnetvm"
)

// TestMain evaluates the manifests with this test binary as hipgen-jsonnet.
func TestMain(m *testing.M) {
	cleanup := testtool.JsonnetHelper(jsonnetvm.Main)
	code := m.Run()
	cleanup()
	os.Exit(code)
}
