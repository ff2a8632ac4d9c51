package main

var doctorCommand = &command{
	name:    "doctor",
	summary: "list toolchains, their versions and supported architectures",
	usage:   "doctor",
	flags:   notImplemented("doctor"),
}
