// Command prep readies generated Go programs for one batch build, outside the programs' reach.
//
// It reads a JSON object from standard input, {"dir": MODULE_DIR, "programs": [{"id": NAME, "src":
// SOURCE}, ...]}, and writes one JSON line per program: {"id", "ok", "standalone", "error"}. For each
// program that parses it writes MODULE_DIR/NAME/main.go with
//   - its imports completed and pruned as goimports does for the standard library (a package named
//     in the code but not imported is added; an import the code does not use is removed);
//   - unless the program initialises package-level state (an init function, a package-level variable
//     with a value: code that would run in every program of a shared binary), its package renamed to
//     NAME and its main function to WapiiMain, so that one binary links the batch and runs one program
//     per process, chosen by its first argument; otherwise ("standalone") it stays package main and is
//     linked into a binary of its own.
// A program that does not parse, imports "C", uses //go:linkname or has no func main() is refused with
// a one-line error (its sample's compile error).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// known maps a package name a program may use without importing it to its import path.
var known = map[string]string{
	"http": "net/http", "url": "net/url", "strings": "strings", "bytes": "bytes", "json": "encoding/json",
	"fmt": "fmt", "io": "io", "ioutil": "io/ioutil", "os": "os", "log": "log", "multipart": "mime/multipart",
	"context": "context", "time": "time", "strconv": "strconv", "base64": "encoding/base64", "errors": "errors",
	"textproto": "net/textproto", "mime": "mime", "filepath": "path/filepath", "path": "path",
}

type program struct {
	ID  string `json:"id"`
	Src string `json:"src"`
}

type result struct {
	ID         string `json:"id"`
	OK         bool   `json:"ok"`
	Standalone bool   `json:"standalone"`
	Error      string `json:"error,omitempty"`
}

func main() {
	var input struct {
		Dir      string    `json:"dir"`
		Programs []program `json:"programs"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&input); err != nil {
		fmt.Fprintln(os.Stderr, "prep:", err)
		os.Exit(2)
	}
	out := json.NewEncoder(os.Stdout)
	for _, p := range input.Programs {
		res := prepare(input.Dir, p)
		res.ID = p.ID
		out.Encode(res)
	}
}

func firstLine(err error) string {
	text := err.Error()
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	if len(text) > 300 {
		text = text[:300]
	}
	return text
}

func importName(spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	path, _ := strconv.Unquote(spec.Path.Value)
	return path[strings.LastIndex(path, "/")+1:]
}

func prepare(dir string, p program) result {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "main.go", p.Src, parser.ParseComments)
	if err != nil {
		return result{Error: "syntax error: " + firstLine(err)}
	}
	for _, group := range file.Comments {
		for _, c := range group.List {
			if strings.HasPrefix(c.Text, "//go:linkname") {
				return result{Error: "//go:linkname is not allowed"}
			}
		}
	}
	if file.Name.Name != "main" {
		return result{Error: fmt.Sprintf("package %s is not package main", file.Name.Name)}
	}
	// the package names the code refers to without declaring them
	used := map[string]bool{}
	unresolved := map[*ast.Ident]bool{}
	for _, id := range file.Unresolved {
		unresolved[id] = true
	}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && unresolved[id] {
				used[id.Name] = true
			}
		}
		return true
	})
	var keep []ast.Spec
	imported := map[string]bool{}
	for _, spec := range file.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if path == "C" {
			return result{Error: `import "C" (cgo) is not available`}
		}
		name := importName(spec)
		if name == "_" || name == "." || used[name] {
			keep = append(keep, spec)
			imported[name] = true
		}
	}
	var missing []string
	for name := range used {
		if !imported[name] && known[name] != "" {
			missing = append(missing, known[name])
		}
	}
	sort.Strings(missing)
	for _, path := range missing {
		keep = append(keep, &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)}})
	}
	var decls []ast.Decl
	standalone := false
	var mainFunc *ast.FuncDecl
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			if d.Tok == token.VAR {
				for _, spec := range d.Specs {
					if len(spec.(*ast.ValueSpec).Values) > 0 {
						standalone = true
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				standalone = true
			}
			if d.Recv == nil && d.Name.Name == "main" {
				mainFunc = d
			}
		}
		decls = append(decls, decl)
	}
	if mainFunc == nil {
		return result{Error: "the program has no func main()"}
	}
	if len(keep) > 0 {
		decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Lparen: 1, Specs: keep}}, decls...)
	}
	file.Decls = decls
	file.Imports = nil
	if !standalone {
		file.Name.Name = p.ID
		target := mainFunc.Name.Obj
		ast.Inspect(file, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "main" && (id == mainFunc.Name || (target != nil && id.Obj == target)) {
				id.Name = "WapiiMain"
			}
			return true
		})
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return result{Error: "the program cannot be printed: " + firstLine(err)}
	}
	pkgDir := filepath.Join(dir, p.ID)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return result{Error: firstLine(err)}
	}
	if err := os.WriteFile(filepath.Join(pkgDir, "main.go"), buf.Bytes(), 0o644); err != nil {
		return result{Error: firstLine(err)}
	}
	return result{OK: true, Standalone: standalone}
}
