// hclparse parses each file named on its command line with HashiCorp's HCL
// parser (hclsyntax.ParseConfig), the parser PCL's reference toolchain
// uses, and exits with status 1 when a file has errors.  bench/memory.py
// measures its peak memory next to pclc's on the same programs.
package main

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: hclparse FILE...")
		os.Exit(2)
	}
	status := 0
	for _, path := range os.Args[1:] {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		file, diags := hclsyntax.ParseConfig(src, path, hcl.Pos{Line: 1, Column: 1, Byte: 0})
		if diags.HasErrors() {
			fmt.Fprintln(os.Stderr, diags.Error())
			status = 1
		}
		// The syntax tree stays alive up to here, as it would while a
		// program is bound.
		if file == nil {
			status = 1
		}
	}
	os.Exit(status)
}
