package main

var translateCommand = &command{
	name:    "translate",
	summary: "translate CUDA sources into the HIP tree",
	usage:   "translate",
	flags:   notImplemented("translate"),
}
