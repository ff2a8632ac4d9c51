package builder

import (
	"testing"

	"github.com/hipgen/hipgen/internal/testtool"
)

func TestMain(m *testing.M) { testtool.Main(m) }
