/* walk.c: the walks over values: the searches (for a kind, for a test, for
 * every EVENTUAL) and pcl__value_rewrite, the one machine that rebuilds a
 * value part by part (stripping secrets, settling EVENTUALs, collapsing and
 * hydrating resources, conforming config), with the JSON path of the part
 * being rewritten for messages.  Every walk keeps its work on an explicit
 * stack, so that any depth is safe, and a walk for EVENTUALs skips the
 * parts whose PCL_F_HOLDS_EVENTUAL flag says they hold none. */
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"

/* The pending values of a walk: an explicit stack, so that a deeply nested
 * value cannot overflow the C stack.  Most walks fit the inline slots. */
typedef struct walk {
  const pcl_value *inline_slots[32]; /* The first pending values. */
  const pcl_value **slots;           /* Pending values (inline_slots or heap). */
  size_t n;                          /* Entries used. */
  size_t cap;                        /* Entries allocated. */
} walk;

/* Adds v to the values w still has to visit. */
static void walk_push(walk *w, const pcl_value *v) {
  if (w->n == w->cap) {
    w->slots = (const pcl_value **)pcl__grow_array((void *)w->slots, w->inline_slots, &w->cap,
                                              sizeof *w->slots);
  }
  w->slots[w->n++] = v;
}

/* Adds x to the values w still has to visit, unless prune is set and x
 * neither is nor may hold an EVENTUAL. */
static void walk_part(walk *w, const pcl_value *x, bool prune) {
  if (!prune || pcl__may_hold_eventual(x)) {
    walk_push(w, x);
  }
}

/* Adds to w the values directly inside v that a walk enters: list, set and
 * map elements and a secret's payload; with deep also resource fields and
 * asset and archive payloads.  They are pushed last first, so that the walk
 * pops them, and so visits the whole value, in document order.  With prune
 * (a walk that looks for EVENTUALs only) the parts that hold none are left
 * out. */
static void walk_children(walk *w, const pcl_value *v, bool deep, bool prune) {
  switch ((pcl_kind)v->kind) {
  case PCL_T_LIST:
  case PCL_T_SET:
    for (size_t i = v->u.list.n; i-- > 0;) {
      walk_part(w, v->u.list.items[i], prune);
    }
    break;
  case PCL_T_MAP:
    for (size_t i = v->u.map.n; i-- > 0;) {
      walk_part(w, v->u.map.vals[i], prune);
    }
    break;
  case PCL_T_RESOURCE:
    if (deep) {
      walk_part(w, v->u.ref.b, prune);
      walk_part(w, v->u.ref.c, prune);
      walk_part(w, v->u.ref.a, prune);
    }
    break;
  case PCL_T_SECRET:
    walk_part(w, v->u.ref.a, prune);
    break;
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
    if (deep) {
      walk_part(w, v->u.ref.a, prune);
    }
    break;
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    break;
  }
}

/* Returns whether v or a value inside it passes the test: hit(value) when
 * hit is not NULL, else a kind equal to kind.  Lists, sets, maps and
 * secrets are always entered; resource fields and asset and archive
 * payloads only when deep is true.  With visit not NULL the walk does not
 * stop at the first value that passes: it calls visit(value, ctx) for each
 * of them, without entering it. */
static bool walk_find(const pcl_value *v, bool (*hit)(const pcl_value *), pcl_kind kind,
                      bool deep, void (*visit)(const pcl_value *, void *), void *ctx) {
  /* A walk for EVENTUALs enters only the values that may hold one. */
  bool prune = hit == NULL && kind == PCL_T_EVENTUAL;
  if (prune && !pcl__may_hold_eventual(v)) {
    return false;
  }
  /* One for a SECRET or UNKNOWN needs none when the flags say there is none. */
  if (hit == NULL && (kind == PCL_T_SECRET || kind == PCL_T_UNKNOWN) && !pcl__may_hold_mark(v)) {
    return false;
  }
  walk w;
  w.slots = w.inline_slots;
  w.n = 0;
  w.cap = sizeof w.inline_slots / sizeof w.inline_slots[0];
  bool found = false;
  for (;;) {
    if (hit != NULL ? hit(v) : (pcl_kind)v->kind == kind) {
      found = true;
      if (visit == NULL) {
        break;
      }
      visit(v, ctx);
    } else {
      walk_children(&w, v, deep, prune);
    }
    if (w.n == 0) {
      break;
    }
    v = w.slots[--w.n];
  }
  if (w.slots != w.inline_slots) {
    free(w.slots);
  }
  return found;
}

bool pcl__value_any(const pcl_value *v, bool (*hit)(const pcl_value *)) {
  return walk_find(v, hit, PCL_T_NULL, true, NULL, NULL);
}

bool pcl__value_contains_kind(const pcl_value *v, pcl_kind kind) {
  return walk_find(v, NULL, kind, false, NULL, NULL);
}

void pcl__value_each_kind(const pcl_value *v, pcl_kind kind,
                          void (*visit)(const pcl_value *, void *), void *ctx) {
  walk_find(v, NULL, kind, false, visit, ctx);
}

/* The tests pcl__value_any applies for the walks below. */
static bool is_not_known(const pcl_value *v) {
  return v->kind == PCL_T_UNKNOWN || v->kind == PCL_T_EVENTUAL;
}

static bool is_secret(const pcl_value *v) { return v->kind == PCL_T_SECRET; }

bool pcl_is_wholly_known(const pcl_value *v) {
  /* The flags answer at once for a value that holds no mark or future. */
  return (!pcl__may_hold_mark(v) && !pcl__may_hold_eventual(v)) ||
         !pcl__value_any(v, is_not_known);
}

bool pcl_has_secret(const pcl_value *v) {
  return pcl__may_hold_mark(v) && pcl__value_any(v, is_secret);
}

/* What pcl__value_rebuild and pcl__value_replace_eventuals were given. */
typedef struct rebuild {
  bool strip; /* SECRETs are replaced by their rebuilt values. */
  pcl_value *(*edit)(const pcl_value *x, void *ctx); /* Replaces a value, or NULL. */
  void *ctx;  /* edit's context. */
} rebuild;

/* The pcl__value_rewrite step of pcl__value_rebuild: edit's replacement,
 * else every container entered (a SECRET unwrapped when stripping). */
static pcl__rw_action rebuild_step(pcl__rw_step *s, void *data) {
  rebuild *b = data;
  pcl_value *r = b->edit != NULL ? b->edit(s->v, b->ctx) : NULL;
  if (r != NULL) {
    s->out = r;
    return PCL__RW_DONE;
  }
  return s->v->kind == PCL_T_SECRET && b->strip ? PCL__RW_UNWRAP : PCL__RW_ENTER;
}

/* Returns v rebuilt (owned): each value x met in it (v itself included,
 * then through lists, sets, maps, secrets and asset and archive payloads)
 * is replaced by edit(x, ctx) when edit is not NULL and returns a value
 * (owned; it is not entered), and with strip every SECRET is replaced by
 * its rebuilt value.  A container none of whose parts changed is shared,
 * not copied; a rebuilt set is sorted again.  edit sees the values in
 * pre-order, parts first to last (a pcl__value_rewrite, below, so any
 * depth is safe). */
static pcl_value *pcl__value_rebuild(const pcl_value *v, bool strip,
                                     pcl_value *(*edit)(const pcl_value *x, void *ctx),
                                     void *ctx) {
  rebuild b = {strip, edit, ctx};
  return pcl__value_rewrite(v, NULL, rebuild_step, &b);
}

pcl_value *pcl_strip_secrets(pcl_value *v) {
  if (!pcl_has_secret(v)) {
    return pcl_retain(v);
  }
  return pcl__value_rebuild(v, true, NULL, NULL);
}

/* --------------------------------------------------------------- rewrite
 * pcl__value_rewrite walks a value top down with an explicit stack of the
 * containers being rebuilt, so that any depth is safe and the time is
 * linear in the size of the value.  The rewrites of the parts done so far
 * wait on a second stack until their container takes them.  Both stacks
 * start in inline storage, so that a rewrite of a small value allocates
 * nothing but the values it makes. */

/* A container whose parts are being rewritten. */
typedef struct rw_frame {
  const pcl_value *v;      /* The container. */
  const pcl_value *key;    /* Its key in its parent MAP, or NULL. */
  size_t index;            /* Its index in its parent. */
  const void *ctx;         /* The context its step set for its parts. */
  bool unwrap;             /* PCL__RW_UNWRAP: the rewrite is the payload's. */
  pcl_value *const *parts; /* Its parts (borrowed from v, see rw_parts). */
  size_t n;                /* Their number (at least 1). */
  size_t next;             /* Parts rewritten so far. */
  size_t base;             /* Where its parts' rewrites start on the result
                              stack. */
} rw_frame;

struct pcl__rw_state {
  rw_frame frames_inline[8]; /* The first frames. */
  rw_frame *frames;          /* The containers from the top down
                                (frames_inline or heap). */
  size_t n, cap;             /* Frames used and allocated. */
  pcl_value *out_inline[16]; /* The first results. */
  pcl_value **out;           /* Rewrites not yet taken by their container
                                (owned; out_inline or heap). */
  size_t nout, capout;       /* Results used and allocated. */
  bool eventuals;            /* The step replaces EVENTUALs only: a value
                                that neither is nor holds one is kept as it
                                is, without a step. */
};

/* Returns the parts a rewrite enters in v (borrowed from v) and stores
 * their number in *n: the elements of a list or set, the values of a map,
 * the payload of a secret, asset or archive; none for every other kind. */
static pcl_value *const *rw_parts(const pcl_value *v, size_t *n) {
  switch ((pcl_kind)v->kind) {
  case PCL_T_LIST:
  case PCL_T_SET:
    *n = v->u.list.n;
    return v->u.list.items;
  case PCL_T_MAP:
    *n = v->u.map.n;
    return v->u.map.vals;
  case PCL_T_SECRET:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
    *n = 1;
    return &v->u.ref.a;
  case PCL_T_RESOURCE:
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    break;
  }
  *n = 0;
  return NULL;
}

/* Returns the container f->v rebuilt of the rewrites out[0..n) of its n
 * parts (stolen); when every part came back unchanged, v itself. */
static pcl_value *rw_rebuild(const rw_frame *f, pcl_value **out) {
  pcl_value *v = (pcl_value *)f->v;
  if (f->unwrap) {
    return out[0];
  }
  size_t n = f->n;
  pcl_value *const *parts = f->parts;
  bool same = true;
  for (size_t i = 0; i < n && same; i++) {
    /* A frame is pushed only for a value with parts, whose rewrites are in
     * out by now: the static analyzer does not see it.
     * NOLINTNEXTLINE(clang-analyzer-core.NullDereference,clang-analyzer-core.UndefinedBinaryOperatorResult) */
    same = out[i] == parts[i];
  }
  if (same) {
    for (size_t i = 0; i < n; i++) {
      pcl_release(out[i]);
    }
    return pcl_retain(v);
  }
  pcl_value *r = NULL;
  switch ((pcl_kind)v->kind) {
  case PCL_T_LIST:
    return pcl_list_of_take(out, n);
  case PCL_T_SET:
    /* Rewritten elements may be equal or out of order: the set is sorted
     * and merged again. */
    return pcl_set_of_take(out, n);
  case PCL_T_MAP:
    return pcl__map_with_vals_take(v, out);
  case PCL_T_SECRET:
    r = pcl_secret_new(out[0]);
    break;
  case PCL_T_ASSET:
    r = pcl_asset_new((pcl_asset_kind)v->sub, out[0]);
    break;
  case PCL_T_ARCHIVE:
    r = pcl_archive_new((pcl_archive_kind)v->sub, out[0]);
    break;
  case PCL_T_RESOURCE:
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    break;
  }
  pcl_release(out[0]);
  return r;
}

/* Makes *step the step of part i of the container of frame f (the fields
 * every step shares stay as they are). */
static void rw_part_step(pcl__rw_step *step, const rw_frame *f, size_t i) {
  step->v = f->parts[i];
  step->parent_ctx = f->ctx;
  step->key = f->v->kind == PCL_T_MAP ? f->v->u.map.keys[i] : NULL;
  step->index = i;
}

/* pcl__value_rewrite, and with eventuals the walk of
 * pcl__value_replace_eventuals (see pcl__rw_state). */
static pcl_value *rewrite_run(const pcl_value *v, const void *ctx, pcl__rw_fn fn, void *data,
                              bool eventuals) {
  pcl__rw_state st;
  st.frames = st.frames_inline;
  st.n = 0;
  st.cap = sizeof st.frames_inline / sizeof st.frames_inline[0];
  st.out = st.out_inline;
  st.nout = 0;
  st.capout = sizeof st.out_inline / sizeof st.out_inline[0];
  st.eventuals = eventuals;
  pcl__rw_step step = {v, ctx, NULL, 0, NULL, NULL, &st};
  pcl_value *result = NULL;
  for (;;) {
    pcl_value *r;
    if (st.eventuals && !pcl__may_hold_eventual(step.v)) {
      r = pcl_retain((pcl_value *)step.v);
    } else {
      step.ctx = step.parent_ctx;
      step.out = NULL;
      pcl__rw_action act = fn(&step, data);
      if (act == PCL__RW_FAIL) {
        /* The rewrites no container took yet are dropped. */
        for (size_t i = 0; i < st.nout; i++) {
          pcl_release(st.out[i]);
        }
        break;
      }
      size_t n = 0;
      pcl_value *const *parts = act != PCL__RW_DONE ? rw_parts(step.v, &n) : NULL;
      if (act == PCL__RW_DONE) {
        r = step.out;
      } else if (n == 0) {
        r = pcl_retain((pcl_value *)step.v);
      } else {
        if (st.n == st.cap) {
          st.frames = pcl__grow_array(st.frames, st.frames_inline, &st.cap, sizeof *st.frames);
        }
        rw_frame *f = &st.frames[st.n++];
        *f = (rw_frame){step.v, step.key, step.index, step.ctx,
                        act == PCL__RW_UNWRAP && step.v->kind == PCL_T_SECRET, parts, n, 0,
                        st.nout};
        rw_part_step(&step, f, 0);
        continue;
      }
    }
    /* Hand r to the containers waiting for it, rebuilding each one whose
     * parts are all done. */
    for (;;) {
      if (st.n == 0) {
        result = r;
        break;
      }
      if (st.nout == st.capout) {
        st.out = pcl__grow_array(st.out, st.out_inline, &st.capout, sizeof *st.out);
      }
      st.out[st.nout++] = r;
      rw_frame *f = &st.frames[st.n - 1];
      if (++f->next < f->n) {
        rw_part_step(&step, f, f->next);
        break;
      }
      r = rw_rebuild(f, st.out + f->base);
      st.nout = f->base;
      st.n--;
    }
    if (st.n == 0) {
      break;
    }
  }
  if (st.out != st.out_inline) {
    free(st.out);
  }
  if (st.frames != st.frames_inline) {
    free(st.frames);
  }
  return result;
}

pcl_value *pcl__value_rewrite(const pcl_value *v, const void *ctx, pcl__rw_fn fn, void *data) {
  return rewrite_run(v, ctx, fn, data, false);
}

pcl_value *pcl__value_replace_eventuals(const pcl_value *v,
                                        pcl_value *(*edit)(const pcl_value *x, void *ctx),
                                        void *ctx) {
  if (!pcl__may_hold_eventual(v)) {
    return pcl_retain((pcl_value *)v);
  }
  rebuild b = {false, edit, ctx};
  return rewrite_run(v, NULL, rebuild_step, &b, true);
}

void pcl__value_each_eventual(const pcl_value *v, void (*visit)(const pcl_value *x, void *ctx),
                              void *ctx) {
  if (!pcl__may_hold_eventual(v)) {
    return;
  }
  walk w;
  w.slots = w.inline_slots;
  w.n = 0;
  w.cap = sizeof w.inline_slots / sizeof w.inline_slots[0];
  for (;;) {
    if (v->kind == PCL_T_EVENTUAL) {
      visit(v, ctx);
    } else {
      size_t n;
      pcl_value *const *parts = rw_parts(v, &n);
      /* Pushed last to first, so that they are visited first to last. */
      for (size_t i = n; i > 0; i--) {
        walk_part(&w, parts[i - 1], true);
      }
    }
    if (w.n == 0) {
      break;
    }
    v = w.slots[--w.n];
  }
  if (w.slots != w.inline_slots) {
    free(w.slots);
  }
}

/* Appends a path step for a map key: .name for a plain name, else the key
 * quoted (without the dot when first, at start); an index as [i]. */
static void path_step(pcl_strbuf *b, size_t start, const pcl_value *key, size_t index) {
  if (key == NULL) {
    pcl_strbuf_appendf(b, "[%zu]", index);
    return;
  }
  if (b->len > start) {
    pcl_strbuf_append_char(b, '.');
  }
  pcl__path_key(b, key->u.str.ptr, key->u.str.len);
}

void pcl__rw_path(const pcl__rw_step *s, pcl_strbuf *b) {
  const pcl__rw_state *st = s->state;
  size_t start = b->len;
  /* The top value has no step; the parts of a secret, asset or archive
   * add none either (they have no key in JSON terms). */
  for (size_t i = 1; i <= st->n; i++) {
    const rw_frame *parent = &st->frames[i - 1];
    const pcl_value *key = i < st->n ? st->frames[i].key : s->key;
    size_t index = i < st->n ? st->frames[i].index : s->index;
    if (parent->v->kind == PCL_T_LIST || parent->v->kind == PCL_T_SET ||
        parent->v->kind == PCL_T_MAP) {
      path_step(b, start, key, index);
    }
  }
}

void pcl__path_key(pcl_strbuf *b, const char *key, size_t len) {
  bool plain = len > 0 && !(key[0] >= '0' && key[0] <= '9');
  for (size_t i = 0; i < len && plain; i++) {
    char c = key[i];
    plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '-';
  }
  if (plain) {
    pcl_strbuf_append(b, key, len);
  } else {
    pcl__json_quote(b, key, len, false);
  }
}
