package secrets

import (
	"strings"
	"testing"
)

func TestS3SecretResolvesAndMasksItsKeys(t *testing.T) {
	t.Setenv("T_KEY", "AKIDEXAMPLE1")
	t.Setenv("T_SECRET", "wJalrXUtnFEMI/K7MDENG")
	t.Setenv("T_ENDPOINT", "127.0.0.1:9000")
	s := New(t.TempDir(), map[string]Spec{"lake": {S3: &S3{KeyID: Spec{Env: "T_KEY"}, Secret: Spec{Env: "T_SECRET"}, EndpointEnv: "T_ENDPOINT", Region: "eu-west-1"}}})
	if got := s.S3Names(); len(got) != 1 || got[0] != "lake" {
		t.Fatalf("S3Names %v", got)
	}
	v, err := s.ResolveS3("lake")
	if err != nil || v.KeyID != "AKIDEXAMPLE1" || v.Secret != "wJalrXUtnFEMI/K7MDENG" || v.Endpoint != "127.0.0.1:9000" || v.Region != "eu-west-1" {
		t.Fatalf("ResolveS3 = %+v, %v", v, err)
	}
	if got := s.Mask("key AKIDEXAMPLE1 secret wJalrXUtnFEMI/K7MDENG at 127.0.0.1:9000"); got != "key *** secret *** at 127.0.0.1:9000" {
		t.Fatalf("Mask: %q (the endpoint is a setting, not masked)", got)
	}
	if _, err := s.Resolve("lake"); err == nil || !strings.Contains(err.Error(), `"lake.key_id"`) {
		t.Fatalf("Resolve of an s3 secret: %v, want its parts named", err)
	}
	if got, err := s.Resolve("lake.endpoint"); err != nil || got != "127.0.0.1:9000" {
		t.Fatalf("lake.endpoint = %q, %v", got, err)
	}
	if _, err := s.Resolve("lake.password"); err == nil || !strings.Contains(err.Error(), "parts: key_id") {
		t.Fatalf("unknown part: %v", err)
	}
	t.Setenv("T_ENDPOINT", "")
	if _, err := s.ResolveS3("lake"); err == nil || !strings.Contains(err.Error(), "T_ENDPOINT is not set") {
		t.Fatalf("unset endpoint: %v", err)
	}
}
