package main

var buildCommand = &command{
	name:    "build",
	summary: "compile every target for the chosen backends",
	usage:   "build",
	flags:   notImplemented("build"),
}
