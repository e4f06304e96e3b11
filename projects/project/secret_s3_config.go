package project

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stratahq/strata/projects/secrets"
)

var s3SecretFields = []string{"kind", "key_id", "secret", "endpoint", "region", "url_style", "use_ssl", "scope"}

// decodeS3Secret reads an s3 secret:
//
//	lake: {kind: s3, key_id: {env: K}, secret: {env: S}, endpoint: {env: E} or host:port,
//	       region: us-east-1, url_style: path, use_ssl: false, scope: s3://lake}
//
// The key id and the secret say where their values are (env or file), as
// every secret does; the rest are settings.
func (d *decoder) decodeS3Secret(n *yaml.Node, field, name string) (secrets.Spec, bool) {
	f, ok := d.fields(n, field, "an s3 secret", s3SecretFields)
	if !ok {
		return secrets.Spec{}, false
	}
	if kind, ok := d.str(f["kind"], join(field, "kind")); !ok || kind != "s3" {
		if ok {
			d.addf(f["kind"].val, join(field, "kind"), "secret kind %q: want s3 (other secrets are {env: VARIABLE} or {file: PATH}, with no kind)", kind)
		}
		return secrets.Spec{}, false
	}
	c := &secrets.S3{}
	good := true
	for _, part := range []struct {
		key string
		to  *secrets.Spec
	}{{"key_id", &c.KeyID}, {"secret", &c.Secret}} {
		e, ok := f[part.key]
		if !ok {
			d.addf(n, join(field, part.key), "s3 secret %q has no %s: want %s: {env: VARIABLE} or {file: PATH}", name, part.key, part.key)
			good = false
			continue
		}
		sp, ok := d.valueSource(e, join(field, part.key))
		if !ok {
			good = false
			continue
		}
		*part.to = sp
	}
	if e, ok := f["endpoint"]; ok {
		if e.val.Kind == yaml.MappingNode {
			sp, ok := d.valueSource(e, join(field, "endpoint"))
			switch {
			case !ok:
				good = false
			case sp.File != "":
				d.addf(e.val, join(field, "endpoint"), "endpoint: want a host:port or {env: VARIABLE}, not a file")
				good = false
			default:
				c.EndpointEnv = sp.Env
			}
		} else if s, ok := d.str(e, join(field, "endpoint")); ok {
			if strings.Contains(s, "://") {
				d.addf(e.val, join(field, "endpoint"), "endpoint %q: want host[:port] without a scheme (use_ssl says http or https)", s)
				good = false
			}
			c.Endpoint = s
		}
	}
	if e, ok := f["region"]; ok {
		c.Region, _ = d.str(e, join(field, "region"))
	}
	if e, ok := f["url_style"]; ok {
		if s, ok := d.str(e, join(field, "url_style")); ok {
			if s != "path" && s != "vhost" {
				d.addf(e.val, join(field, "url_style"), "url_style %q: want path (http://host/bucket/key, most S3-compatible servers) or vhost (http://bucket.host/key)", s)
				good = false
			}
			c.URLStyle = s
		}
	}
	if e, ok := f["use_ssl"]; ok {
		if b, ok := d.boolean(e, join(field, "use_ssl")); ok {
			c.UseSSL = &b
		}
	}
	if e, ok := f["scope"]; ok {
		if s, ok := d.str(e, join(field, "scope")); ok {
			if !strings.HasPrefix(s, "s3://") {
				d.addf(e.val, join(field, "scope"), "scope %q: want an s3:// prefix such as s3://lake", s)
				good = false
			}
			c.Scope = s
		}
	}
	return secrets.Spec{S3: c}, good
}

// valueSource reads {env: VARIABLE} or {file: PATH}.
func (d *decoder) valueSource(e entry, field string) (secrets.Spec, bool) {
	f, ok := d.fields(e.val, field, "where the value is", secretFields)
	if !ok {
		return secrets.Spec{}, false
	}
	var sp secrets.Spec
	if e, ok := f["env"]; ok {
		if s, ok := d.str(e, join(field, "env")); ok {
			if !envName.MatchString(s) {
				d.addf(e.val, join(field, "env"), "environment variable %q: want letters, digits and _", s)
				return sp, false
			}
			sp.Env = s
		}
	}
	if e, ok := f["file"]; ok {
		if s, ok := d.str(e, join(field, "file")); ok {
			sp.File = s
		}
	}
	if (sp.Env == "") == (sp.File == "") {
		d.addf(e.val, field, "want one of {env: VARIABLE} or {file: PATH}")
		return sp, false
	}
	return sp, true
}

// mappingHas reports whether mapping n has key.
func mappingHas(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// checkS3NeedsHTTPFS: an s3 secret is for DuckDB's httpfs, which loads only
// when the project names it (autoload is off).
func (d *decoder) checkS3NeedsHTTPFS(p *Project, n *yaml.Node) {
	if slices.Contains(p.Extensions, "httpfs") {
		return
	}
	names := make([]string, 0, len(p.Secrets))
	for name := range p.Secrets {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if p.Secrets[name].S3 != nil {
			d.addf(n, join("secrets", name), "s3 secret %q is for DuckDB's httpfs: add httpfs to extensions (extensions: [httpfs]) and run `strata extensions install`", name)
			return
		}
	}
}
