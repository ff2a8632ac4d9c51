package main

var testCommand = &command{
	name:    "test",
	summary: "build and run the test targets on every available platform",
	usage:   "test",
	flags:   notImplemented("test"),
}
