package remote

import (
	"testing"
	"time"
)

// A lake credential is kept between tasks for lakeSecretTTL, then asked
// for again (a rotated value is picked up).
func TestLakeSecretsKeptForTheirTTL(t *testing.T) {
	t.Parallel()
	var c lakeSecrets
	t0 := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	if _, ok := c.get("lake_s3.secret", t0); ok {
		t.Fatal("an empty cache answered")
	}
	c.put("lake_s3.secret", "s3-secret-1", t0)
	for _, tc := range []struct {
		after time.Duration
		ok    bool
	}{{0, true}, {lakeSecretTTL / 2, true}, {lakeSecretTTL, true}, {lakeSecretTTL + time.Second, false}} {
		v, ok := c.get("lake_s3.secret", t0.Add(tc.after))
		if ok != tc.ok || (ok && v != "s3-secret-1") {
			t.Errorf("after %v: %q, %v; want kept %v", tc.after, v, ok, tc.ok)
		}
	}
	if _, ok := c.get("lake_s3.key_id", t0); ok {
		t.Error("another name answered")
	}
}
