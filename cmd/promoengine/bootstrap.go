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
// not echoed: the operator has them, and stdout often ends up in a log
// (docker compose logs, journald).
func printBootstrap(w io.Writer, b *access.Bootstrapped, getenv func(string) string) {
	appToken, mgmtToken := b.Project.AppToken, b.Management.ManagementToken
	if getenv("PROMO_BOOTSTRAP_APP_TOKEN") != "" {
		appToken = "(as set in PROMO_BOOTSTRAP_APP_TOKEN)"
	}
	if getenv("PROMO_BOOTSTRAP_MANAGEMENT_TOKEN") != "" {
		mgmtToken = "(as set in PROMO_BOOTSTRAP_MANAGEMENT_TOKEN)"
	}
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

`, b.Project.ProjectID, b.Project.AppID, appToken, b.Management.ManagementID, mgmtToken,
		b.Project.ClientAppID, b.Project.ClientAppToken)
}
