// Command fawn is a full-screen terminal IDE in which an AI coding agent works
// on a project while its user watches and joins in.
package main

import "fmt"

var version = "dev"

func main() {
	fmt.Println("fawn", version)
}
