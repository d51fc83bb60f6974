package main

import (
	"fmt"
	"io"

	"github.com/promoengine/promoengine/graph/access"
)

// bootstrapLockKey serialises the first-start bootstrap across processes.
const bootstrapLockKey = 7_267_002

// printBootstrap shows the credentials of a first start, once, on stdout
// (never through the logger). Tokens supplied through the environment are
// not echoed.
func printBootstrap(w io.Writer, b *access.Bootstrapped) {
	fmt.Fprintf(w, `
=== promoengine: first start — default project created ===
project id:        %s
X-App-Id:          %s
X-App-Token:       %s
X-Management-Id:   %s
X-Management-Token: %s
client-side key (X-Client-Application-Id / X-Client-Token, /client/v1 from
the project's client_trusted_domains): %s / %s
These tokens are stored hashed and will not be shown again.
===========================================================

`, b.Project.ProjectID, b.Project.AppID, b.Project.AppToken, b.Management.ManagementID, b.Management.ManagementToken,
		b.Project.ClientAppID, b.Project.ClientAppToken)
}
