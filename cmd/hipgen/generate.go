package main

var generateCommand = &command{
	name:    "generate",
	summary: "write CMake, setup.py or Bazel build files",
	usage:   "generate",
	flags:   notImplemented("generate"),
}
