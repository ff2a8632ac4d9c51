package main

var cleanCommand = &command{
	name:    "clean",
	summary: "remove build outputs and the compile cache",
	usage:   "clean",
	flags:   notImplemented("clean"),
}
