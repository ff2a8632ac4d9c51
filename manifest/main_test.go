package manifest

import (
	"os"
	"testing"

	"github.com/hipgen/hipgen/internal/testtool"
)

// TestMain evaluates the manifests with this test binary as hipgen-jsonnet.
func TestMain(m *testing.M) {
	cleanup := testtool.JsonnetHelper()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
