package main

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Lists a bucket of an S3-compatible server, page by page.
func main() {
	ctx := context.Background()
	client := s3.New(s3.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String("http://{{S3_ENDPOINT}}"),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider("{{S3_KEY_ID}}", "{{S3_SECRET}}", ""),
	})
	p := s3.NewListObjectsV2Paginator(client, &s3.ListObjectsV2Input{Bucket: aws.String("shop"), Prefix: aws.String("raw/"), MaxKeys: aws.Int32(2)})
	pages, total := 0, int64(0)
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			fmt.Println("list:", err)
			return
		}
		pages++
		for _, o := range out.Contents {
			fmt.Printf("%s %d bytes\n", aws.ToString(o.Key), aws.ToInt64(o.Size))
			total += aws.ToInt64(o.Size)
		}
	}
	fmt.Println("pages", pages, "bytes", total)
}
