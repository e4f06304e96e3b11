package sources

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/s3test"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

const s3ListBlock = `package objects

import (
	"bufio"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/stratahq/strata/blocks/sdk"
)

// Load lists the bucket's raw/ objects with the AWS SDK and counts each
// one's lines, with the parts of the project's s3 secret.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	part := func(p string) string { v, _ := ctx.Secret("lake." + p); return v }
	client := s3.New(s3.Options{
		Region:       part("region"),
		BaseEndpoint: aws.String("http://" + part("endpoint")),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(part("key_id"), part("secret"), ""),
	})
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("bytes"), sdk.Int64("lines"))
	p := s3.NewListObjectsV2Paginator(client, &s3.ListObjectsV2Input{Bucket: aws.String("lake"), Prefix: aws.String("raw/")})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range page.Contents {
			obj, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("lake"), Key: o.Key})
			if err != nil {
				return nil, err
			}
			lines := 0
			sc := bufio.NewScanner(obj.Body)
			for sc.Scan() {
				lines++
			}
			obj.Body.Close()
			t.Append(aws.ToString(o.Key), aws.ToInt64(o.Size), int64(lines))
		}
	}
	return t, nil
}
`

// A Go block importing the AWS SDK's S3 client lists and reads a real
// S3-compatible server (SeaweedFS) with the parts of an s3 secret, through
// the real binary, compiled and in the project kernel.
func TestGoBlockReadsS3WithTheAWSSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	exttest.Require(t, "httpfs")
	srv := s3test.Start(t)
	srv.CreateBucket(t, "lake")
	srv.Put(t, "lake", "raw/a.csv", []byte("id\n1\n2\n"))
	srv.Put(t, "lake", "raw/b.csv", []byte("id\n3\n"))
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	if out, code := strataCmd(t, bin, nil, "init", dir); code != 0 {
		t.Fatal(out)
	}
	if out, code := strataCmd(t, bin, nil, "mod", "add", dir, "github.com/aws/aws-sdk-go-v2/service/s3@v1.115.0",
		"github.com/aws/aws-sdk-go-v2/credentials@v1.21.3", "github.com/aws/aws-sdk-go-v2@v1.48.0"); code != 0 {
		t.Fatalf("mod add: %s", out)
	}
	writeExtProject(t, dir, map[string]string{
		"strata.yaml":               "name: objects\nextensions: [httpfs]\nsecrets:\n  lake: {kind: s3, key_id: {env: LAKE_KEY_ID}, secret: {env: LAKE_SECRET}, endpoint: {env: LAKE_ENDPOINT}, region: us-east-1}\n",
		"pipelines/objects.yaml":    "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: objects\n",
		"blocks/objects/objects.go": s3ListBlock,
	})
	env := []string{"LAKE_KEY_ID=" + srv.KeyID, "LAKE_SECRET=" + srv.Secret, "LAKE_ENDPOINT=" + srv.Endpoint}
	for i, engine := range []string{"compiled", "interp"} {
		day := []string{"2024-03-10", "2024-03-11"}[i]
		out, code := strataCmd(t, bin, env, "run", dir, "objects", "--partition", day, "--engine", engine)
		if code != 0 || !strings.Contains(out, "succeeded") || !strings.Contains(out, "engine "+engine) {
			t.Fatalf("run --engine %s: exit %d\n%s", engine, code, out)
		}
		if strings.Contains(out, srv.Secret) {
			t.Fatalf("run output shows the secret:\n%s", out)
		}
		js, code := strataCmd(t, bin, env, "preview", dir, "objects", "objects", "--partition", day, "--format", "json")
		var got struct {
			Preview struct {
				Rows [][]any `json:"rows"`
			} `json:"preview"`
		}
		if code != 0 || json.Unmarshal([]byte(js), &got) != nil {
			t.Fatalf("preview: %s", js)
		}
		b, _ := json.Marshal(got.Preview.Rows)
		// After the partition column: key, bytes, lines.
		if want := `[["` + day + `","raw/a.csv",7,3],["` + day + `","raw/b.csv",5,2]]`; string(b) != want {
			t.Fatalf("%s: rows %s, want %s", engine, b, want)
		}
	}
}
