package sources

import (
	"encoding/json"
	"io"
	"sort"

	"github.com/hipgen/hipgen/diag"
)

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
