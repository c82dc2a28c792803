package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCredentialsFromFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, v string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := map[string]string{
		"AWS_ACCESS_KEY_ID_FILE":     write("id", "AKIDEXAMPLE\n"),
		"AWS_SECRET_ACCESS_KEY_FILE": write("secret", "s3cr3t\n"),
	}
	c, err := credentialsFromFiles(func(k string) string { return env[k] })
	if err != nil || c.AccessKey != "AKIDEXAMPLE" || c.SecretKey != "s3cr3t" || c.SessionToken != "" {
		t.Fatalf("%+v %v", c, err)
	}
	delete(env, "AWS_SECRET_ACCESS_KEY_FILE")
	if _, err := credentialsFromFiles(func(k string) string { return env[k] }); err == nil {
		t.Fatal("an access key without its secret was accepted")
	}
	env["AWS_SECRET_ACCESS_KEY_FILE"] = filepath.Join(dir, "missing")
	if _, err := credentialsFromFiles(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "AWS_SECRET_ACCESS_KEY_FILE") {
		t.Fatalf("missing file: %v", err)
	}
	if c, err := credentialsFromFiles(func(string) string { return "" }); err != nil || c != (Credentials{}) {
		t.Fatalf("no files: %+v %v", c, err)
	}
}

func TestStorageURLValidated(t *testing.T) {
	c := Config{DataDir: "d", Addr: ":1", FileURLTTL: 1, Browsers: 1, LogFormat: "text", LogLevel: "info"}
	if err := c.Validate(); err != nil {
		t.Fatalf("baseline config: %v", err)
	}
	for _, bad := range []string{"/srv/files", "file:///srv", "s3://"} {
		c.StorageURL = bad
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "KODA_STORAGE_URL") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	c.StorageURL = "s3://bucket/prefix?region=eu-west-1"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}
