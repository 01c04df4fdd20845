package vectors

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
)

// object is a JSON object whose fields are read one by one, so that a
// field the runner does not know is noticed instead of ignored.
type object map[string]json.RawMessage

func readObject(path string) (object, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var o object
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return o, nil
}

// only returns an error naming the fields of o outside known.
func (o object) only(known ...string) error {
	var extra []string
	for k := range o {
		if !slices.Contains(known, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("unknown field(s) %s", strings.Join(extra, ", "))
	}
	return nil
}

func (o object) has(key string) bool { _, ok := o[key]; return ok }

func (o object) str(key string) (string, error) {
	raw, ok := o[key]
	if !ok {
		return "", fmt.Errorf("missing field %q", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %q: %v", key, err)
	}
	return s, nil
}

func (o object) hex(key string) ([]byte, error) {
	s, err := o.str(key)
	if err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("field %q: %v", key, err)
	}
	return b, nil
}

// optHex is hex(key), or nil if the field is absent.
func (o object) optHex(key string) ([]byte, error) {
	if !o.has(key) {
		return nil, nil
	}
	return o.hex(key)
}

func (o object) boolean(key string) (bool, error) {
	raw, ok := o[key]
	if !ok {
		return false, fmt.Errorf("missing field %q", key)
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, fmt.Errorf("field %q: %v", key, err)
	}
	return b, nil
}

func (o object) integer(key string) (int, error) {
	raw, ok := o[key]
	if !ok {
		return 0, fmt.Errorf("missing field %q", key)
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, fmt.Errorf("field %q: %v", key, err)
	}
	return n, nil
}

func (o object) strings(key string) ([]string, error) {
	raw, ok := o[key]
	if !ok {
		return nil, fmt.Errorf("missing field %q", key)
	}
	var s []string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("field %q: %v", key, err)
	}
	return s, nil
}

func (o object) objects(key string) ([]object, error) {
	raw, ok := o[key]
	if !ok {
		return nil, fmt.Errorf("missing field %q", key)
	}
	var s []object
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("field %q: %v", key, err)
	}
	return s, nil
}
