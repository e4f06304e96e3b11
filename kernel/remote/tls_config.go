package remote

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Fingerprint is the SHA-256 of a certificate's DER bytes, in hex: what a
// worker pins with --tls-pin.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}

// ServerTLS loads the embedded listener's certificate and key from files.
func ServerTLS(certFile, keyFile string) (*tls.Config, string, error) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, "", fmt.Errorf("worker listener certificate %s / key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, Fingerprint(pair.Certificate[0]), nil
}

// SelfSignedTLS returns the certificate kept in dir (cert.pem, key.pem),
// creating a self-signed one for hosts on first use; created says it was
// made now. Workers trust it by its fingerprint (--tls-pin) or by the
// certificate file itself (--tls-ca).
func SelfSignedTLS(dir string, hosts []string) (cfg *tls.Config, fingerprint string, created bool, err error) {
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if _, err := os.Stat(certFile); err == nil {
		cfg, fp, err := ServerTLS(certFile, keyFile)
		return cfg, fp, false, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, "", false, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, "", false, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "strata worker listener"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	if h, err := os.Hostname(); err == nil {
		hosts = append(hosts, h)
	}
	for _, h := range append(hosts, "localhost", "127.0.0.1", "::1") {
		if ip := net.ParseIP(h); ip != nil {
			if !ip.IsUnspecified() {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			}
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, "", false, err
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, "", false, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", false, err
	}
	if err := writeFileAtomic(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		return nil, "", false, err
	}
	if err := writeFileAtomic(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return nil, "", false, err
	}
	cfg, fp, err := ServerTLS(certFile, keyFile)
	return cfg, fp, true, err
}

// ClientTLS is a worker's TLS: caFile (PEM) is the certificate or CA to
// trust, pin the listener certificate's SHA-256 fingerprint. With a pin
// alone the name in the certificate is not checked, the fingerprint is
// (it names exactly one certificate). Both empty: the system's roots.
func ClientTLS(caFile, pin string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		b, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("--tls-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(b) {
			return nil, fmt.Errorf("--tls-ca %s: no PEM certificate in it", caFile)
		}
		cfg.RootCAs = pool
	}
	if pin != "" {
		want, err := hex.DecodeString(strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(pin, ":", ""), "sha256")))
		if err != nil || len(want) != sha256.Size {
			return nil, fmt.Errorf("--tls-pin %q: want the 64 hex digits of the certificate's SHA-256 fingerprint (strata start prints it)", pin)
		}
		cfg.InsecureSkipVerify = caFile == "" // the pin is the check
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("the NATS server sent no certificate")
			}
			got := sha256.Sum256(cs.PeerCertificates[0].Raw)
			if subtle.ConstantTimeCompare(got[:], want) != 1 {
				return &PinMismatchError{Got: got[:], Want: want}
			}
			return nil
		}
	}
	return cfg, nil
}

// PinMismatchError is a listener whose certificate is not the pinned one.
type PinMismatchError struct{ Got, Want []byte }

func (e *PinMismatchError) Error() string {
	return fmt.Sprintf("the NATS server's certificate has fingerprint %x, not the pinned %x: not the coordinator you meant, or its certificate changed", e.Got, e.Want)
}

// untrusted reports whether err is a listener this worker does not trust:
// no retry changes that, so waiting would only hide it.
func untrusted(err error) bool {
	var verify *tls.CertificateVerificationError
	var pin *PinMismatchError
	var authority x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verify) || errors.As(err, &pin) || errors.As(err, &authority) || errors.As(err, &host) || errors.As(err, &invalid)
}
