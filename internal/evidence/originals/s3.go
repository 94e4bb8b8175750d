package originals

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 keeps originals as objects <prefix>/<sum> in a bucket of an
// S3-compatible server, each with its SHA-256 in its metadata.
type S3 struct {
	client         *minio.Client
	bucket, prefix string
	where          string
}

// NewS3 returns the store at spec ("s3://bucket/prefix") on the server at
// endpoint ("http://127.0.0.1:8333"; https://s3.amazonaws.com when ""),
// signing with the key pair given. The bucket is made if it is missing.
func NewS3(spec, endpoint, accessKey, secretKey string) (*S3, error) {
	u, err := url.Parse(spec)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return nil, fmt.Errorf("originals: %q is not s3://bucket/prefix", spec)
	}
	if endpoint == "" {
		endpoint = "https://s3.amazonaws.com"
	}
	e, err := url.Parse(endpoint)
	if err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" {
		return nil, fmt.Errorf("originals: the S3 endpoint %q is not http(s)://host[:port]", endpoint)
	}
	client, err := minio.New(e.Host, &minio.Options{Creds: credentials.NewStaticV4(accessKey, secretKey, ""), Secure: e.Scheme == "https"})
	if err != nil {
		return nil, fmt.Errorf("originals: %w", err)
	}
	s := &S3{client: client, bucket: u.Host, prefix: strings.Trim(u.Path, "/"), where: spec + " at " + endpoint}
	ctx := context.Background()
	ok, err := client.BucketExists(ctx, s.bucket)
	if err != nil {
		return nil, fmt.Errorf("originals: cannot reach %s: %w", s.where, err)
	}
	if !ok {
		if err := client.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{}); err != nil {
			return nil, fmt.Errorf("originals: cannot make the bucket %s: %w", s.where, err)
		}
	}
	return s, nil
}

// Where is the bucket and its server.
func (s *S3) Where() string { return s.where }

func (s *S3) key(sum string) string {
	if s.prefix == "" {
		return sum
	}
	return s.prefix + "/" + sum
}

// Put uploads the bytes unless an object holds them already; the
// server checks them against their SHA-256 (x-amz-checksum-sha256), so a
// changed file is refused there and nothing is kept.
func (s *S3) Put(ctx context.Context, sum string, size int64, r io.Reader) (bool, error) {
	if !validSum(sum) {
		return false, fmt.Errorf("originals: %q is not a SHA-256", sum)
	}
	if _, err := s.client.StatObject(ctx, s.bucket, s.key(sum), minio.StatObjectOptions{}); err == nil {
		return false, nil
	} else if minio.ToErrorResponse(err).Code != "NoSuchKey" {
		return false, fmt.Errorf("originals: %s: %w", s.where, err)
	}
	// Hashed on the way up as well: a server that does not check the
	// checksum still never holds bytes under the wrong sum for long.
	hr := newHashingReader(r)
	_, err := s.client.PutObject(ctx, s.bucket, s.key(sum), hr, size, minio.PutObjectOptions{
		ContentType: "image/jpeg", UserMetadata: map[string]string{"sha256": sum}})
	if err != nil {
		return false, fmt.Errorf("originals: uploading %s to %s: %w", sum, s.where, err)
	}
	if got := hr.sum(); got != sum {
		s.client.RemoveObject(ctx, s.bucket, s.key(sum), minio.RemoveObjectOptions{})
		return false, &MismatchError{Want: sum, Got: got}
	}
	return true, nil
}

// Open streams the object.
func (s *S3) Open(ctx context.Context, sum string) (io.ReadCloser, error) {
	if !validSum(sum) {
		return nil, fmt.Errorf("originals: %q is not a SHA-256", sum)
	}
	obj, err := s.client.GetObject(ctx, s.bucket, s.key(sum), minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("originals: %s: %w", s.where, err)
	}
	// GetObject is lazy: a missing object shows on the first read.
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		if minio.ToErrorResponse(err).Code == "NoSuchKey" {
			return nil, fmt.Errorf("%s in %s: %w", sum, s.where, ErrNotFound)
		}
		return nil, fmt.Errorf("originals: %s: %w", s.where, err)
	}
	return obj, nil
}
