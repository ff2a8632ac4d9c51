package sources

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
)

// TranslatorVersion changes whenever the translator's output for the same
// input may change; it is part of every cache key.
const TranslatorVersion = "1"

// CacheKey identifies a translation: the input bytes, every option that
// changes the output and the mapping table's version. Equal keys give
// equal outputs and diagnostics.
func CacheKey(name string, src []byte, opts Options) string {
	h := sha256.New()
	tv := hipmap.TableVersion
	if opts.Table != nil {
		tv = opts.Table.Version()
	}
	v := opts.ROCmVersion
	if v.IsZero() {
		v = hipmap.DefaultROCm
	}
	fmt.Fprintf(h, "hipgen-translate %s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00",
		TranslatorVersion, tv, name, opts.SourcePath, v, opts.Launch, opts.Wave, len(src))
	for _, l := range opts.LocalIncludes {
		fmt.Fprintf(h, "%s\x00", l)
	}
	h.Write(src)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// WriteSARIF prints diagnostics as a SARIF 2.1.0 log, for code-scanning
// services.
func WriteSARIF(w io.Writer, ds []diag.Diagnostic) error {
	type region struct {
		StartLine   int `json:"startLine,omitempty"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	type physical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *region `json:"region,omitempty"`
	}
	type location struct {
		PhysicalLocation physical `json:"physicalLocation"`
	}
	type message struct {
		Text string `json:"text"`
	}
	type result struct {
		RuleID    string     `json:"ruleId"`
		Level     string     `json:"level"`
		Message   message    `json:"message"`
		Locations []location `json:"locations"`
	}
	type rule struct {
		ID string `json:"id"`
	}
	rules := map[string]bool{}
	results := []result{}
	for _, d := range ds {
		var loc location
		loc.PhysicalLocation.ArtifactLocation.URI = d.File
		if d.Line > 0 {
			loc.PhysicalLocation.Region = &region{d.Line, d.Col}
		}
		id := d.Check
		if id == "" {
			id = "hipgen"
		}
		rules[id] = true
		results = append(results, result{RuleID: id, Level: d.Severity.String(), Message: message{d.Message}, Locations: []location{loc}})
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	rl := []rule{}
	for _, id := range ids {
		rl = append(rl, rule{id})
	}
	log := map[string]any{
		"version": "2.1.0",
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"runs": []any{map[string]any{
			"tool":    map[string]any{"driver": map[string]any{"name": "hipgen", "informationUri": "https://github.com/hipgen/hipgen", "rules": rl}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}
