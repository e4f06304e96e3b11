package s3test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"
)

// The few S3 calls tests need, signed with AWS Signature Version 4 by hand
// (the standard library only: strata's go.mod carries no AWS SDK).

// CreateBucket creates bucket (path-style PUT /bucket). A fresh server can
// refuse writes for a moment while its volumes grow: it is retried then.
func (s *Server) CreateBucket(t testing.TB, bucket string) {
	t.Helper()
	s.must(t, http.MethodPut, "/"+bucket, nil)
}

// Put stores body at bucket/key.
func (s *Server) Put(t testing.TB, bucket, key string, body []byte) {
	t.Helper()
	s.must(t, http.MethodPut, "/"+bucket+"/"+key, body)
}

// Get returns the object at bucket/key; a missing object fails the test.
func (s *Server) Get(t testing.TB, bucket, key string) []byte {
	t.Helper()
	b, err := s.GetErr(context.Background(), bucket, key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// GetErr is Get returning its error instead of failing the test.
func (s *Server) GetErr(ctx context.Context, bucket, key string) ([]byte, error) {
	code, body, err := s.do(ctx, http.MethodGet, "/"+bucket+"/"+key, nil)
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("GET s3://%s/%s: %w %d: %s", bucket, key, errStatus, code, body)
	}
	return body, nil
}

// Delete removes bucket/key (absent is fine, as in S3).
func (s *Server) Delete(t testing.TB, bucket, key string) {
	t.Helper()
	s.must(t, http.MethodDelete, "/"+bucket+"/"+key, nil)
}

// List returns the keys under prefix in bucket, sorted (every page).
func (s *Server) List(t testing.TB, bucket, prefix string) []string {
	t.Helper()
	keys, err := s.ListErr(context.Background(), bucket, prefix)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// ListErr is List returning its error instead of failing the test.
func (s *Server) ListErr(ctx context.Context, bucket, prefix string) ([]string, error) {
	var keys []string
	token := ""
	for {
		q := url.Values{"list-type": {"2"}, "prefix": {prefix}}
		if token != "" {
			q.Set("continuation-token", token)
		}
		code, body, err := s.do(ctx, http.MethodGet, "/"+bucket+"?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		if code != http.StatusOK {
			return nil, fmt.Errorf("list s3://%s/%s: %w %d: %s", bucket, prefix, errStatus, code, body)
		}
		var res struct {
			Contents  []struct{ Key string }
			Truncated bool   `xml:"IsTruncated"`
			Next      string `xml:"NextContinuationToken"`
		}
		if err := xml.Unmarshal(body, &res); err != nil {
			return nil, fmt.Errorf("list s3://%s/%s: %w", bucket, prefix, err)
		}
		for _, c := range res.Contents {
			keys = append(keys, c.Key)
		}
		if !res.Truncated || res.Next == "" {
			break
		}
		token = res.Next
	}
	sort.Strings(keys)
	return keys, nil
}

// must does a write and fails t unless it succeeds; 5xx answers (volumes
// still growing on a fresh server) are retried for up to 30 s.
func (s *Server) must(t testing.TB, method, path string, body []byte) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, out, err := s.do(context.Background(), method, path, body)
		if err == nil && code/100 == 2 {
			return
		}
		if (err == nil && code < 500) || time.Now().After(deadline) {
			t.Fatalf("%s %s%s: %d %v %s", method, s.URL, path, code, err, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// do sends one signed request; path is /bucket[/key][?query].
func (s *Server) do(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	u, err := url.Parse(s.URL + path)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	s.sign(req, body, time.Now().UTC())
	c := http.Client{Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// sign adds AWS Signature Version 4 headers for service s3.
func (s *Server) sign(req *http.Request, body []byte, now time.Time) {
	sum := sha256.Sum256(body)
	payload := hex.EncodeToString(sum[:])
	amzDate := now.Format("20060102T150405Z")
	day := now.Format("20060102")
	req.Header.Set("x-amz-date", amzDate)
	req.Header.Set("x-amz-content-sha256", payload)
	headers := map[string]string{"host": req.URL.Host, "x-amz-date": amzDate, "x-amz-content-sha256": payload}
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	var canonHeaders strings.Builder
	for _, k := range names {
		canonHeaders.WriteString(k + ":" + headers[k] + "\n")
	}
	signed := strings.Join(names, ";")
	canonical := strings.Join([]string{req.Method, escapePath(req.URL.Path), canonicalQuery(req.URL.Query()),
		canonHeaders.String(), signed, payload}, "\n")
	scope := day + "/" + s.Region + "/s3/aws4_request"
	h := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(h[:])
	key := hmacSHA([]byte("AWS4"+s.Secret), day)
	key = hmacSHA(key, s.Region)
	key = hmacSHA(key, "s3")
	key = hmacSHA(key, "aws4_request")
	sig := hex.EncodeToString(hmacSHA(key, toSign))
	req.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s", s.KeyID, scope, signed, sig))
}

func hmacSHA(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// escapePath is S3's canonical URI: each segment URI-encoded, / kept.
func escapePath(p string) string {
	if p == "" {
		return "/"
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = uriEncode(seg)
	}
	return strings.Join(segs, "/")
}

func canonicalQuery(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		vs := append([]string(nil), q[k]...)
		sort.Strings(vs)
		for _, v := range vs {
			parts = append(parts, uriEncode(k)+"="+uriEncode(v))
		}
	}
	return strings.Join(parts, "&")
}

// uriEncode encodes everything but A-Z a-z 0-9 - _ . ~, as SigV4 wants.
func uriEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
