package main

var initCommand = &command{
	name:    "init",
	summary: "write a starter hipgen.jsonnet from the CUDA files found",
	usage:   "init",
	flags:   notImplemented("init"),
}
