package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Writes an object, reads it back and sums a column: the same key written
// again replaces it, so running this twice leaves one object.
func main() {
	ctx := context.Background()
	client := s3.New(s3.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String("http://{{S3_ENDPOINT}}"),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider("{{S3_KEY_ID}}", "{{S3_SECRET}}", ""),
	})
	body := "day,revenue\n2024-03-10,120.50\n2024-03-11,99.25\n"
	_, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("shop"), Key: aws.String("metrics/daily.csv"),
		Body: strings.NewReader(body), ContentType: aws.String("text/csv")})
	if err != nil {
		fmt.Println("put:", err)
		return
	}
	out, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("shop"), Key: aws.String("metrics/daily.csv")})
	if err != nil {
		fmt.Println("get:", err)
		return
	}
	defer out.Body.Close()
	fmt.Println("content type", aws.ToString(out.ContentType), "length", aws.ToInt64(out.ContentLength))
	sc := bufio.NewScanner(out.Body)
	lines := 0
	for sc.Scan() {
		lines++
		fmt.Println("line", lines, sc.Text())
	}
	rest, _ := io.ReadAll(out.Body)
	fmt.Println("lines", lines, "left", len(rest))
	_, err = client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("shop"), Key: aws.String("metrics/missing.csv")})
	fmt.Println("missing object is an error:", err != nil)
}
