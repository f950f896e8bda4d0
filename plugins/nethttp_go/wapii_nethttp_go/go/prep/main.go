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
//     linked into a binary of its own;
//   - for a program that can share a binary, a second copy in MODULE_DIR/progs/NAME.go, package progs,
//     its package-level names prefixed with NAME_ and main exported as WNAME: every such program
//     compiles in one compiler run (a program whose copy does not compile there is built from its own
//     package instead, which gives its own error); a program that declares a predeclared name at
//     package level (const true = false, func len) or one name twice gets no copy there (renamable):
//     in the shared package that name would shadow or collide with every other program's;
//   - no comment at all: build constraints, //go: and //line directives cannot change how a program
//     or the package it shares is built.
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
	Shared     bool   `json:"shared"`
	Error      string `json:"error,omitempty"`
}

// SharedPackage is the package that holds every program that can share one: one compiler run for the batch.
const SharedPackage = "progs"

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
	// every comment goes: build constraints (//go:build, // +build), //go: and //line directives and
	// cgo preambles then cannot change how this program, or the package it shares, is built
	file.Comments = nil
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
	pkgDir := filepath.Join(dir, p.ID)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return result{Error: firstLine(err)}
	}
	shared := false
	if !standalone && renamable(file) {
		// the shared package's copy: package-level names prefixed with the program's name (they are
		// resolved within the file), main exported as W<name>; written before the renaming below
		sharedFile := *file
		file.Name.Name = SharedPackage
		renames := map[*ast.Object]string{}
		for name, obj := range file.Scope.Objects {
			if name == "_" {
				continue
			}
			if obj == mainFunc.Name.Obj {
				renames[obj] = "W" + p.ID
			} else {
				renames[obj] = p.ID + "_" + name
			}
		}
		var originals []*ast.Ident
		var names []string
		ast.Inspect(file, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Obj != nil {
				if renamed, ok := renames[id.Obj]; ok {
					originals = append(originals, id)
					names = append(names, id.Name)
					id.Name = renamed
				}
			}
			return true
		})
		var buf bytes.Buffer
		if err := format.Node(&buf, fset, file); err == nil {
			if err := os.MkdirAll(filepath.Join(dir, SharedPackage), 0o755); err == nil {
				shared = os.WriteFile(filepath.Join(dir, SharedPackage, p.ID+".go"), buf.Bytes(), 0o644) == nil
			}
		}
		for i, id := range originals {
			id.Name = names[i]
		}
		file = &sharedFile
	}
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
	if err := os.WriteFile(filepath.Join(pkgDir, "main.go"), buf.Bytes(), 0o644); err != nil {
		return result{Error: firstLine(err)}
	}
	return result{OK: true, Standalone: standalone, Shared: shared}
}

// predeclared holds the names Go declares in its universe scope: a program that declares one at
// package level (const true = false, func len(...)) would shadow it for every file of its package.
var predeclared = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64 int int8
		int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear
		close complex copy delete imag len make max min new panic print println real recover`) {
		predeclared[name] = true
	}
}

// renamable reports whether every package-level name the program declares is one object of its
// file scope that no other declaration repeats, and none is a predeclared name: only then does the
// renaming into the shared package leave no name of its own that could shadow or collide with
// another program's. A program that fails it is compiled in a package of its own.
func renamable(file *ast.File) bool {
	seen := map[string]bool{}
	check := func(id *ast.Ident) bool {
		if id.Name == "_" {
			return true
		}
		if seen[id.Name] || predeclared[id.Name] || id.Obj == nil || file.Scope.Lookup(id.Name) != id.Obj {
			return false
		}
		seen[id.Name] = true
		return true
	}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && !check(d.Name) {
				return false
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if !check(id) {
							return false
						}
					}
				case *ast.TypeSpec:
					if !check(s.Name) {
						return false
					}
				}
			}
		}
	}
	return true
}
