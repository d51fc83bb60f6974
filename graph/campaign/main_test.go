package campaign

import (
	"os"
	"testing"

	"github.com/promoengine/promoengine/graph/job"
)

func TestMain(m *testing.M) {
	for typ, h := range JobHandlers() {
		job.Register(typ, h)
	}
	os.Exit(m.Run())
}
