/* suggest: the known name closest to a name that was not found, for the
 * note "did you mean 'bucket'?" that pclc adds to an unknown variable,
 * property, attribute, function or resource type and a compiled program to
 * an undeclared config key: the one implementation both sides share.
 *
 * Closeness is the edit distance with transpositions (optimal string
 * alignment: an insertion, a deletion, a substitution or the swap of two
 * neighbours costs 1), and a candidate is offered only within the cutoff
 * gcc uses: a third of the longer name, at least 1 when the lengths differ
 * by at most one, and nothing for names of one character.  Of the
 * candidates within the cutoff the closest wins, the first offered among
 * equals, so the answer depends only on the order of the offers.  Names
 * longer than PCL__SUGGEST_MAX_LEN bytes get no suggestion, which bounds the
 * work of each offer; the module allocates nothing.  Its names have the
 * runtime's internal prefix because it is linked into libpclrt.a. */
#ifndef PCL_COMMON_SUGGEST_H
#define PCL_COMMON_SUGGEST_H

#include <stddef.h>

/* The longest name (in bytes) that suggestions are made for or from. */
enum { PCL__SUGGEST_MAX_LEN = 64 };

/* A search for the name closest to goal. */
typedef struct pcl__suggest {
  const char *goal; /* The name not found (borrowed). */
  size_t goal_len;  /* Its length in bytes. */
  const char *best; /* The closest candidate so far (borrowed), or NULL. */
  size_t best_len;  /* Its length. */
  size_t best_dist; /* Its distance. */
} pcl__suggest;

/* Starts a search for the name goal[0..len). */
void pcl__suggest_init(pcl__suggest *s, const char *goal, size_t len);
/* Offers the candidate name[0..len) (borrowed until the search ends); a
 * candidate equal to the goal is not a suggestion. */
void pcl__suggest_offer(pcl__suggest *s, const char *name, size_t len);
/* Returns the closest candidate offered within the cutoff (its length in
 * *len when len is not NULL), or NULL. */
const char *pcl__suggest_best(const pcl__suggest *s, size_t *len);
/* Returns the edit distance of a[0..alen) and b[0..blen), both at most
 * PCL__SUGGEST_MAX_LEN bytes, or any value above max as soon as it is known
 * to exceed max. */
size_t pcl__edit_distance(const char *a, size_t alen, const char *b, size_t blen, size_t max);

#endif
