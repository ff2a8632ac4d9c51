package main

var manifestCommand = &command{
	name:    "manifest",
	summary: "print the evaluated, validated manifest as JSON",
	usage:   "manifest",
	flags:   notImplemented("manifest"),
}
