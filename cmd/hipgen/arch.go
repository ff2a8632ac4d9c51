package main

var archCommand = &command{
	name:    "arch",
	summary: "print the GPU architectures each backend will build for",
	usage:   "arch",
	flags:   notImplemented("arch"),
}
