//go:build !linux

package main

// hardenProcess does nothing outside Linux yet.
func hardenProcess() {}
