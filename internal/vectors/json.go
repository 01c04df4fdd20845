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

// get decodes the field key of o into a T.
func get[T any](o object, key string) (T, error) {
	var v T
	raw, ok := o[key]
	if !ok {
		return v, fmt.Errorf("missing field %q", key)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("field %q: %v", key, err)
	}
	return v, nil
}

func (o object) str(key string) (string, error)       { return get[string](o, key) }
func (o object) boolean(key string) (bool, error)     { return get[bool](o, key) }
func (o object) integer(key string) (int, error)      { return get[int](o, key) }
func (o object) strings(key string) ([]string, error) { return get[[]string](o, key) }
func (o object) objects(key string) ([]object, error) { return get[[]object](o, key) }

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
