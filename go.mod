module github.com/hipgen/hipgen

go 1.26

require (
	github.com/bazelbuild/buildtools v0.0.0-20260904073137-eaa4d125b423 // indirect
	github.com/google/go-jsonnet v0.22.0 // indirect
	github.com/mattn/go-zglob v0.0.8 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/crypto v0.45.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
	sigs.k8s.io/yaml v1.4.0 // indirect
)
