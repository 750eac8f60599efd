/* main: the `pclc` command-line driver.
 *
 * Parses the options (GNU long options), sets up one compilation (arena,
 * intern table, sources, diagnostics), runs the selected mode and frees
 * everything before exiting.  Exit status: 0 on success, 1 when the program
 * has errors, 2 for usage and I/O errors.  Diagnostics go to stderr; the
 * output of a mode (such as the AST dump) goes to stdout.
 *
 * Adding a mode: add an enumerator to pclc_mode, a row to `modes` (option
 * name, help text) and a `run_*` function, and call it from run_mode. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/arena.h"
#include "front/ast.h"
#include "bind/bind.h"
#include "bind/bind_uses.h"
#include "bind/dump_types.h"
#include "base/depfile.h"
#include "base/diag.h"
#include "emit/emit.h"
#include "base/intern.h"
#include "ir/ir.h"
#include "ir/lower.h"
#include "base/outfile.h"
#include "front/parse.h"
#include "schema/schema.h"
#include "base/src.h"
#include "base/stack.h"
#include "types/ty.h"
#include "base/util.h"

#define PCLC_VERSION "0.1.0"

enum { EXIT_PROGRAM_ERROR = 1, EXIT_USAGE = 2 };

typedef enum pclc_mode {
  MODE_NONE,       /* No mode chosen yet. */
  MODE_PARSE_ONLY, /* Parse and report errors; print nothing else. */
  MODE_DUMP_AST,   /* Print the syntax tree. */
  MODE_CHECK,      /* Bind and type-check; print nothing else. */
  MODE_DUMP_TYPES, /* Print every node and attribute with its type. */
  MODE_DUMP_IR,    /* Print the typed IR. */
  MODE_COMPILE,    /* Write the C translation unit (-o FILE). */
  MODE_LIST_PACKAGES, /* Print the packages the program uses and its files. */
} pclc_mode;

/* The mode options, in the order --help lists them. */
static const struct {
  pclc_mode mode;
  const char *name; /* Long option name. */
  const char *help; /* One line for --help. */
} modes[] = {
    {MODE_PARSE_ONLY, "parse-only", "parse the program and report syntax errors"},
    {MODE_DUMP_AST, "dump-ast", "print the syntax tree of the program"},
    {MODE_CHECK, "check", "bind and type-check the program and report errors"},
    {MODE_DUMP_TYPES, "dump-types", "print every node and attribute with its type"},
    {MODE_DUMP_IR, "dump-ir", "print the typed IR (eventual values as applies)"},
    {MODE_COMPILE, "compile", "compile the program to C (the default with -o)"},
    {MODE_LIST_PACKAGES, "list-packages",
     "print the packages the program uses (name, version, download URL,\n"
     "                       parameterization) and the files it reads, as JSON;\n"
     "                       needs no schemas"},
};

/* At most this many --schema-path options. */
enum { MAX_SCHEMA_PATHS = 64 };

typedef struct options {
  pclc_mode mode;
  const char *input; /* The .pp file or program directory. */
  const char *schema_paths[MAX_SCHEMA_PATHS]; /* --schema-path folders, in order. */
  size_t nschema_paths;
  const char *output; /* -o FILE: where the C goes ("-" for stdout). */
  bool dep_md;           /* -MD: write a dependency file beside the output. */
  const char *dep_file;  /* -MF FILE: write the dependency file to FILE. */
  bool no_lines;         /* --no-line-directives: no #line in the C. */
  size_t max_input;      /* --max-input-size: the most bytes of one input file. */
  const char *color;     /* -fdiagnostics-color: "auto" (the default), "always" or "never". */
} options;

/* Everything one run of the compiler allocates. */
typedef struct compilation {
  arena arena;
  intern_table intern;
  src_set src;
  diag_list diags;
  parse_env env;
  ast_program program;
} compilation;

static void compilation_init(compilation *c) {
  arena_init(&c->arena);
  intern_init(&c->intern, &c->arena);
  src_init(&c->src);
  diag_init(&c->diags, &c->src);
  c->env = (parse_env){&c->arena, &c->intern, &c->src, &c->diags, 0};
  c->program = (ast_program){NULL, 0};
}

static void compilation_free(compilation *c) {
  diag_free(&c->diags);
  src_free(&c->src);
  intern_free(&c->intern);
  arena_free(&c->arena);
}

static void usage(FILE *out) {
  fprintf(out, "usage: pclc MODE [OPTION]... FILE|DIR\n"
               "\n"
               "Compiles a PCL program: one .pp file, or every .pp file of a directory.\n"
               "\n"
               "Modes:\n");
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    fprintf(out, "  --%-18s %s\n", modes[i].name, modes[i].help);
  fprintf(out, "\n"
               "Options:\n"
               "  -o FILE              write the C translation unit to FILE (- for stdout)\n"
               "  -MD                  also write a Make dependency file, FILE with .c\n"
               "                       replaced by .d, naming every file read\n"
               "  -MF DEPFILE          write the dependency file to DEPFILE\n"
               "  --schema-path DIR    look for package schemas in DIR (repeatable)\n"
               "  --no-line-directives do not map the C to the .pp sources with #line\n"
               "  --max-input-size BYTES\n"
               "                       refuse a source, component or schema file of more\n"
               "                       than BYTES bytes (default 268435456, 256 MiB)\n"
               "  -fdiagnostics-color[=WHEN]\n"
               "                       colour diagnostics: auto (the default: on a terminal,\n"
               "                       unless NO_COLOR is set or TERM is dumb), always or\n"
               "                       never; -fno-diagnostics-color is never\n"
               "  --help               print this help and exit\n"
               "  --version            print the version and exit\n"
               "\n"
               "Environment:\n"
               "  PCLC_STACK_SIZE      the stack the phases run on (default 1G): programs\n"
               "                       nested deeper than it allows are refused\n"
               "\n"
               "Exit status: 0 on success, 1 when the program has errors, 2 for usage or\n"
               "input/output errors.\n");
}

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("pclc: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\nTry 'pclc --help' for more information.\n", stderr);
  return EXIT_USAGE;
}

/* Takes the GCC-style options (-MD, -MF FILE, -MFFILE,
 * -fdiagnostics-color[=WHEN], -fno-diagnostics-color) out of argv, which
 * getopt_long cannot parse, and records them in *o; *argc is updated.
 * Arguments after "--" are left alone.  Returns -1 to continue, else the
 * exit status. */
static int take_gcc_options(int *argc, char **argv, options *o) {
  int kept = 1;
  bool rest = false;
  for (int i = 1; i < *argc; i++) {
    const char *a = argv[i];
    if (!rest && strcmp(a, "--") == 0)
      rest = true;
    if (!rest && strncmp(a, "-fdiagnostics-color", 19) == 0 && (a[19] == 0 || a[19] == '=')) {
      const char *when = a[19] ? a + 20 : "always";
      if (strcmp(when, "auto") != 0 && strcmp(when, "always") != 0 && strcmp(when, "never") != 0)
        return usage_error("-fdiagnostics-color takes auto, always or never, not '%s'", when);
      o->color = when;
      continue;
    }
    if (!rest && strcmp(a, "-fno-diagnostics-color") == 0) {
      o->color = "never";
      continue;
    }
    if (!rest && strcmp(a, "-MD") == 0) {
      o->dep_md = true;
      continue;
    }
    if (!rest && strncmp(a, "-MF", 3) == 0) {
      if (a[3] == 0 && i + 1 == *argc)
        return usage_error("%s", "option '-MF' requires an argument");
      o->dep_file = a[3] ? a + 3 : argv[++i];
      continue;
    }
    argv[kept++] = argv[i];
  }
  argv[kept] = NULL;
  *argc = kept;
  return -1;
}

/* Parses argv into *o; returns -1 to continue, else the exit status. */
static int parse_options(int argc, char **argv, options *o) {
  int status = take_gcc_options(&argc, argv, o);
  if (status >= 0)
    return status;
  enum { OPT_HELP = 256, OPT_VERSION, OPT_SCHEMA_PATH, OPT_NO_LINES, OPT_MAX_INPUT, OPT_MODE };
  struct option longopts[sizeof modes / sizeof modes[0] + 6];
  size_t n = 0;
  longopts[n++] = (struct option){"schema-path", required_argument, NULL, OPT_SCHEMA_PATH};
  longopts[n++] = (struct option){"max-input-size", required_argument, NULL, OPT_MAX_INPUT};
  longopts[n++] = (struct option){"no-line-directives", no_argument, NULL, OPT_NO_LINES};
  longopts[n++] = (struct option){"help", no_argument, NULL, OPT_HELP};
  longopts[n++] = (struct option){"version", no_argument, NULL, OPT_VERSION};
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    longopts[n++] = (struct option){modes[i].name, no_argument, NULL, OPT_MODE + (int)i};
  longopts[n] = (struct option){NULL, 0, NULL, 0};

  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    if (c == 'o') {
      o->output = optarg;
      continue;
    }
    if (c == OPT_HELP) {
      usage(stdout);
      return EXIT_SUCCESS;
    }
    if (c == OPT_VERSION) {
      printf("pclc %s\n", PCLC_VERSION);
      return EXIT_SUCCESS;
    }
    if (c == OPT_NO_LINES) {
      o->no_lines = true;
      continue;
    }
    if (c == OPT_MAX_INPUT) {
      char *end;
      errno = 0;
      unsigned long long v = strtoull(optarg, &end, 10);
      if (errno != 0 || end == optarg || *end != '\0' || optarg[0] == '-' || v == 0 ||
          v > SRC_LARGEST_MAX_SIZE)
        return usage_error("--max-input-size must be a number of bytes from 1 to %zu, not '%s'",
                           SRC_LARGEST_MAX_SIZE, optarg);
      o->max_input = (size_t)v;
      continue;
    }
    if (c == OPT_SCHEMA_PATH) {
      if (o->nschema_paths == MAX_SCHEMA_PATHS)
        return usage_error("too many --schema-path options (at most %d)", MAX_SCHEMA_PATHS);
      o->schema_paths[o->nschema_paths++] = optarg;
      continue;
    }
    if (c >= OPT_MODE && c < OPT_MODE + (int)(sizeof modes / sizeof modes[0])) {
      pclc_mode m = modes[c - OPT_MODE].mode;
      if (o->mode != MODE_NONE && o->mode != m)
        return usage_error("more than one mode given (%s)", argv[optind - 1]);
      o->mode = m;
      continue;
    }
    if (c == ':')
      return usage_error("option '%s' requires an argument", argv[optind - 1]);
    return usage_error("unknown option '%s'", argv[optind - 1]);
  }
  if (optind >= argc)
    return usage_error("%s", "no input file or directory given");
  if (optind + 1 < argc)
    return usage_error("unexpected argument '%s' (give one file or directory)", argv[optind + 1]);
  if (o->mode == MODE_NONE && o->output)
    o->mode = MODE_COMPILE;
  if (o->mode == MODE_COMPILE && !o->output)
    return usage_error("%s", "--compile needs -o FILE");
  if (o->mode == MODE_NONE)
    return usage_error("%s", "no mode given (such as --dump-ast or --parse-only)");
  if ((o->dep_md || o->dep_file) && (o->mode != MODE_COMPILE || strcmp(o->output, "-") == 0))
    return usage_error("%s", "-MD and -MF need -o FILE (the dependency file's target)");
  o->input = argv[optind];
  return -1;
}

/* Parses the input into c->program; returns -1 on success, else the exit
 * status (diagnostics already printed). */
static int load_program(compilation *c, const options *o) {
  parse_status s = parse_program(&c->env, o->input, &c->program);
  diag_print(&c->diags, stderr);
  switch (s) {
  case PARSE_OK:
    return -1;
  case PARSE_ERRORS:
    return EXIT_PROGRAM_ERROR;
  case PARSE_IO_ERROR:
    return EXIT_USAGE;
  }
  return EXIT_PROGRAM_ERROR;
}

static int run_parse_only(compilation *c, const options *o) {
  int status = load_program(c, o);
  return status >= 0 ? status : EXIT_SUCCESS;
}

/* A dump is written to memory first and copied to standard output only
 * when it is whole: a program nested too deep for the stack to walk prints
 * nothing but the error. */
typedef struct dump_buffer {
  FILE *f;     /* Where the dump writes. */
  char *text;  /* What it wrote (open_memstream). */
  size_t len;  /* Its length. */
} dump_buffer;

static void dump_open(dump_buffer *b) {
  b->text = NULL;
  b->len = 0;
  b->f = open_memstream(&b->text, &b->len);
  if (!b->f)
    abort();
}

/* Closes b and copies what was written to standard output if whole. */
static void dump_close(dump_buffer *b, bool whole) {
  fclose(b->f);
  if (whole)
    fwrite(b->text, 1, b->len, stdout);
  free(b->text);
}

static int run_dump_ast(compilation *c, const options *o) {
  int status = load_program(c, o);
  if (status >= 0)
    return status;
  dump_buffer b;
  dump_open(&b);
  bool whole = ast_dump(b.f, &c->src, &c->program, &c->diags);
  dump_close(&b, whole);
  diag_print(&c->diags, stderr);
  return whole ? EXIT_SUCCESS : EXIT_PROGRAM_ERROR;
}

/* Returns the directory of the program: the input itself when it is a
 * directory, else the directory of the file (arena string). */
static const char *program_dir(compilation *c, const char *input) {
  struct stat st;
  if (stat(input, &st) == 0 && S_ISDIR(st.st_mode))
    return input;
  const char *slash = strrchr(input, '/');
  if (!slash)
    return ".";
  if (slash == input)
    return "/";
  return arena_strndup(&c->arena, input, (size_t)(slash - input));
}

/* The binder's context for c's program, with the types of tyc and the
 * packages of schemas (NULL for none). */
static bind_ctx binder(compilation *c, ty_ctx *tyc, schema_set *schemas) {
  bind_ctx bc = {0};
  bc.arena = &c->arena;
  bc.names = &c->intern;
  bc.src = &c->src;
  bc.diag = &c->diags;
  bc.ty = tyc;
  bc.schemas = schemas;
  return bc;
}

/* The exit status that c's diagnostics call for. */
static int diags_status(const compilation *c) {
  return c->diags.io_errors ? EXIT_USAGE : c->diags.errors ? EXIT_PROGRAM_ERROR : EXIT_SUCCESS;
}

/* Lowers the bound program p and prints its IR or writes its C (by o's
 * mode).  Returns the exit status. */
static int run_backend(compilation *c, const options *o, ty_ctx *tyc, const bnd_program *p) {
  lower_ctx lc = {&c->arena, tyc, &c->intern, 0, {0}, &c->diags, false};
  ir_module *m = lower_program(&lc, p);
  ptrmap_free(&lc.component_types);
  if (lc.too_deep)
    return EXIT_PROGRAM_ERROR;
  if (o->mode == MODE_DUMP_IR) {
    dump_buffer b;
    dump_open(&b);
    bool whole = ir_dump(b.f, &c->src, m, &c->diags);
    dump_close(&b, whole);
    return whole ? EXIT_SUCCESS : EXIT_PROGRAM_ERROR;
  }
  outfile out;
  const char *err;
  if (!outfile_open(&out, o->output, &err)) {
    fprintf(stderr, "pclc: error: cannot open %s: %s\n", o->output, err);
    return EXIT_USAGE;
  }
  emit_options eo = {o->input, o->output, "pclc " PCLC_VERSION, !o->no_lines};
  /* A write failure's reason comes from the stream when it is committed;
     an expression too deep for the emitter's stack is an error of the
     program, which leaves no file. */
  emit_program(out.f, &eo, &c->src, &c->diags, m);
  if (c->diags.errors) {
    outfile_discard(&out);
    return EXIT_PROGRAM_ERROR;
  }
  if (!outfile_commit(&out, &err)) {
    fprintf(stderr, "pclc: error: cannot write %s: %s\n", o->output, err);
    return EXIT_USAGE;
  }
  return EXIT_SUCCESS;
}

/* Parses, binds and type-checks the program; prints the type dump when
 * dump is set, or runs the back end for --dump-ir and --compile.
 * Diagnostics of every phase are printed together. */
static int run_bind(compilation *c, const options *o, bool dump) {
  parse_status s = parse_program(&c->env, o->input, &c->program);
  if (s != PARSE_OK) {
    diag_print(&c->diags, stderr);
    return s == PARSE_IO_ERROR ? EXIT_USAGE : EXIT_PROGRAM_ERROR;
  }
  ty_ctx tyc;
  ty_ctx_init(&tyc, &c->arena, &c->intern);
  schema_set *schemas = schema_set_new(&tyc, &c->arena, &c->intern, &c->diags);
  int status = -1;
  for (size_t i = 0; i < o->nschema_paths; i++) {
    if (!schema_add_path(schemas, o->schema_paths[i]))
      status = EXIT_USAGE;
  }
  if (status < 0) {
    bind_ctx bc = binder(c, &tyc, schemas);
    bnd_program *p = bind_program(&bc, &c->program, program_dir(c, o->input));
    status = diags_status(c);
    if (dump && status == EXIT_SUCCESS) {
      dump_buffer b;
      dump_open(&b);
      bool whole = dump_types(b.f, p, &tyc, &c->diags);
      dump_close(&b, whole);
      status = whole ? EXIT_SUCCESS : EXIT_PROGRAM_ERROR;
    }
    if ((o->mode == MODE_DUMP_IR || o->mode == MODE_COMPILE) && status == EXIT_SUCCESS) {
      diag_print(&c->diags, stderr);
      bool color = c->diags.color;
      diag_free(&c->diags);
      diag_init(&c->diags, &c->src);
      c->diags.color = color;
      status = run_backend(c, o, &tyc, p);
    }
  }
  diag_print(&c->diags, stderr);
  schema_set_free(schemas);
  ty_ctx_free(&tyc);
  return status;
}

/* Sets key of obj to the string v when v is not NULL. */
static void json_set_text(json_t *obj, const char *key, const char *v) {
  if (v)
    json_object_set_new(obj, key, json_string(v));
}

/* Prints the packages the program uses and the files it read as one JSON
 * object (docs/host.md): {"packages": [{"name", "version", "downloadURL",
 * "parameterization": {"name", "version", "value"}}], "files": [...]},
 * absent members left out.  Exit status 1 when the program has syntax
 * errors or invalid package blocks. */
static int run_list_packages(compilation *c, const options *o) {
  int status = load_program(c, o);
  if (status >= 0)
    return status;
  ty_ctx tyc;
  ty_ctx_init(&tyc, &c->arena, &c->intern);
  bind_ctx bc = binder(c, &tyc, NULL);
  bind_uses uses = {0};
  bind_collect_uses(&bc, &c->program, program_dir(c, o->input), &uses);
  diag_print(&c->diags, stderr);
  status = diags_status(c);
  if (status == EXIT_SUCCESS) {
    json_t *doc = json_object(), *pkgs = json_array(), *files = json_array();
    for (size_t i = 0; i < uses.count; i++) {
      const bind_use *u = &uses.items[i];
      json_t *p = json_object();
      json_set_text(p, "name", u->name);
      json_set_text(p, "version", u->version);
      json_set_text(p, "downloadURL", u->download_url);
      if (u->param_name) {
        json_t *param = json_object();
        json_set_text(param, "name", u->param_name);
        json_set_text(param, "version", u->param_version);
        json_set_text(param, "value", u->param_value);
        json_object_set_new(p, "parameterization", param);
      }
      json_array_append_new(pkgs, p);
    }
    for (size_t i = 0; i < c->src.count; i++)
      json_array_append_new(files, json_string(c->src.files[i].path));
    json_object_set_new(doc, "packages", pkgs);
    json_object_set_new(doc, "files", files);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    printf("%s\n", text);
    free(text);
    json_decref(doc);
  }
  bind_uses_free(&uses);
  ty_ctx_free(&tyc);
  return status;
}

/* Writes the dependency file of a successful compilation: every file read
 * (the program's and its components' .pp files and the schema files, which
 * the schema module reads into the same src_set) as prerequisites of the
 * output.  Returns the exit status. */
static int write_deps(compilation *c, const options *o) {
  char *path = o->dep_file ? NULL : depfile_default_path(o->output);
  const char *file = o->dep_file ? o->dep_file : path;
  const char *err = NULL;
  int status = EXIT_SUCCESS;
  if (!depfile_write(file, o->output, &c->src, NULL, 0, &err)) {
    fprintf(stderr, "pclc: error: cannot write dependency file %s: %s\n", file, err);
    status = EXIT_USAGE;
  }
  free(path);
  return status;
}

/* Returns whether diagnostics are coloured: -fdiagnostics-color=always, or
 * auto (the default) with stderr a terminal, NO_COLOR unset or empty
 * (no-color.org) and TERM not "dumb", as gcc decides. */
static bool use_color(const options *o) {
  const char *when = o->color ? o->color : "auto";
  if (strcmp(when, "auto") != 0)
    return strcmp(when, "always") == 0;
  const char *no_color = getenv("NO_COLOR");
  const char *term = getenv("TERM");
  return isatty(STDERR_FILENO) && !(no_color && *no_color) && term && strcmp(term, "dumb") != 0;
}

static int run_mode(compilation *c, const options *o) {
  switch (o->mode) {
  case MODE_PARSE_ONLY:
    return run_parse_only(c, o);
  case MODE_DUMP_AST:
    return run_dump_ast(c, o);
  case MODE_CHECK:
    return run_bind(c, o, false);
  case MODE_DUMP_TYPES:
    return run_bind(c, o, true);
  case MODE_DUMP_IR:
  case MODE_COMPILE:
    return run_bind(c, o, false);
  case MODE_LIST_PACKAGES:
    return run_list_packages(c, o);
  case MODE_NONE:
    break;
  }
  return EXIT_USAGE;
}

/* The command line, for run_pclc. */
typedef struct command_line {
  int argc;
  char **argv;
} command_line;

/* Runs pclc on the command line cl (a command_line); returns the exit
 * status.  Runs on the phases' large stack (base/stack.h). */
static int run_pclc(void *cl) {
  int argc = ((command_line *)cl)->argc;
  char **argv = ((command_line *)cl)->argv;
  options o = {0};
  int status = parse_options(argc, argv, &o);
  if (status >= 0)
    return status;
  compilation c;
  compilation_init(&c);
  if (o.max_input)
    c.src.max_size = o.max_input;
  c.diags.color = use_color(&o);
  status = run_mode(&c, &o);
  if (status == EXIT_SUCCESS && (o.dep_md || o.dep_file))
    status = write_deps(&c, &o);
  compilation_free(&c);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "pclc: error: cannot write to standard output: %s\n",
            strerror(errno ? errno : EIO));
    return EXIT_USAGE;
  }
  return status;
}

int main(int argc, char **argv) {
  /* A reader that closed standard output is a write error to report
     (status 2), not a signal that ends pclc silently. */
  signal(SIGPIPE, SIG_IGN);
  util_route_allocations();
  /* PCLC_STACK_SIZE sets the size of the phases' stack (base/stack.h). */
  size_t stack = 0;
  const char *env = getenv("PCLC_STACK_SIZE");
  if (env && *env && !stack_parse_size(env, &stack))
    return usage_error("PCLC_STACK_SIZE=%s is not a size (such as 1G, 512M or 65536)", env);
  command_line cl = {argc, argv};
  return stack_run(stack, run_pclc, &cl);
}
