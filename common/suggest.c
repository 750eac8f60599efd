/* suggest: "did you mean" by edit distance (see suggest.h). */
#include "suggest.h"

#include <string.h>

size_t pcl__edit_distance(const char *a, size_t alen, const char *b, size_t blen, size_t max) {
  /* Three rows of the dynamic programme: the one before the previous (for
     transpositions), the previous and the current. */
  size_t rows[3][PCL__SUGGEST_MAX_LEN + 1];
  size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= blen; j++)
    prev[j] = j;
  for (size_t i = 1; i <= alen; i++) {
    cur[0] = i;
    size_t row_min = cur[0];
    for (size_t j = 1; j <= blen; j++) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t d = prev[j - 1] + cost;
      if (prev[j] + 1 < d)
        d = prev[j] + 1;
      if (cur[j - 1] + 1 < d)
        d = cur[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
        d = prev2[j - 2] + 1;
      cur[j] = d;
      if (d < row_min)
        row_min = d;
    }
    /* Every later row is at least this row's minimum. */
    if (row_min > max)
      return max + 1;
    size_t *t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[blen];
}

/* gcc's cutoff (get_edit_distance_cutoff) for names of these lengths. */
static size_t cutoff(size_t goal_len, size_t cand_len) {
  size_t longer = goal_len > cand_len ? goal_len : cand_len;
  size_t shorter = goal_len > cand_len ? cand_len : goal_len;
  if (longer <= 1)
    return 0;
  if (longer - shorter <= 1)
    return longer / 3 > 1 ? longer / 3 : 1;
  return (longer + 2) / 3;
}

void pcl__suggest_init(pcl__suggest *s, const char *goal, size_t len) {
  s->goal = goal;
  s->goal_len = len;
  s->best = NULL;
  s->best_len = 0;
  s->best_dist = 0;
}

void pcl__suggest_offer(pcl__suggest *s, const char *name, size_t len) {
  if (s->goal_len > PCL__SUGGEST_MAX_LEN || len > PCL__SUGGEST_MAX_LEN)
    return;
  if (len == s->goal_len && memcmp(name, s->goal, len) == 0)
    return;
  size_t max = cutoff(s->goal_len, len);
  if (s->best && s->best_dist - 1 < max)
    max = s->best_dist - 1; /* Only a closer one can win. */
  size_t diff = len > s->goal_len ? len - s->goal_len : s->goal_len - len;
  if (max == 0 || diff > max)
    return;
  size_t d = pcl__edit_distance(s->goal, s->goal_len, name, len, max);
  if (d <= max) {
    s->best = name;
    s->best_len = len;
    s->best_dist = d;
  }
}

const char *pcl__suggest_best(const pcl__suggest *s, size_t *len) {
  if (len)
    *len = s->best_len;
  return s->best;
}
