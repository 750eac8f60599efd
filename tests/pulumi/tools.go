//go:build tools

// The tools tests/pulumi builds from Pulumi's modules (build-tools): the CLI
// and the language conformance suite, and the suite's protocol that the
// driver (conformance.js) speaks.  This file only records them as
// dependencies of the module, so that `go mod tidy` keeps what they need.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
	_ "github.com/pulumi/pulumi/pkg/v3/testing/pulumi-test-language"
	_ "github.com/pulumi/pulumi/sdk/v3/proto/go/testing"
)
