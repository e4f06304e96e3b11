package project

import "testing"

func TestLoadS3Secret(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"strata.yaml": lines(
		"name: shop",
		"extensions: [httpfs]",
		"secrets:",
		"  lake:",
		"    kind: s3",
		"    key_id: {env: LAKE_KEY_ID}",
		"    secret: {file: ~/.config/strata/lake}",
		"    endpoint: {env: LAKE_ENDPOINT}",
		"    region: us-east-1",
		"    url_style: path",
		"    use_ssl: false",
		"    scope: s3://lake",
		"  aws: {kind: s3, key_id: {env: K}, secret: {env: S}, endpoint: s3.example.com:9000}",
	)})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
	c := p.Secrets["lake"].S3
	if c == nil || c.KeyID.Env != "LAKE_KEY_ID" || c.Secret.File != "~/.config/strata/lake" || c.EndpointEnv != "LAKE_ENDPOINT" ||
		c.Region != "us-east-1" || c.URLStyle != "path" || c.UseSSL == nil || *c.UseSSL || c.Scope != "s3://lake" {
		t.Fatalf("lake = %+v", c)
	}
	if a := p.Secrets["aws"].S3; a == nil || a.Endpoint != "s3.example.com:9000" || a.UseSSL != nil {
		t.Fatalf("aws = %+v", a)
	}
}

func TestLoadRefusesBadS3Secrets(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"strata.yaml": lines(
		"name: shop",
		"secrets:",
		"  a: {kind: s3, secret: {env: S}}",
		"  b: {kind: s3, key_id: KEY, secret: {env: S}}",
		"  c: {kind: s3, key_id: {env: K}, secret: {env: S}, endpoint: 'http://x:1', url_style: virtual, scope: lake}",
		"  d: {kind: gcs, key_id: {env: K}}",
		"  e: {kind: s3, key_id: {env: K}, secret: {env: S}, password: x}",
	)})
	_, probs := loadProject(t, dir)
	assertProblems(t, probs, []want{
		{"strata.yaml", 3, "secrets.a.key_id", `s3 secret "a" has no key_id`},
		{"strata.yaml", 4, "secrets.b.key_id", `want where the value is with fields`},
		{"strata.yaml", 5, "secrets.c.endpoint", `without a scheme`},
		{"strata.yaml", 5, "secrets.c.url_style", `url_style "virtual"`},
		{"strata.yaml", 5, "secrets.c.scope", `want an s3:// prefix`},
		{"strata.yaml", 6, "secrets.d.kind", `secret kind "gcs": want s3`},
		{"strata.yaml", 7, "secrets.e.password", `unknown field "password"`},
		{"strata.yaml", 2, "secrets.e", `add httpfs to extensions`},
	})
}
