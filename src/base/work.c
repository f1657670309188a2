/* The index queue of work.h. */
#include "wingen/base/work.h"

void wg_work_init(struct wg_work *w, size_t n)
{
	pthread_mutex_init(&w->lock, NULL);
	w->next = 0;
	w->n = n;
}

void wg_work_destroy(struct wg_work *w)
{
	pthread_mutex_destroy(&w->lock);
}

bool wg_work_take(struct wg_work *w, size_t *k)
{
	bool got;

	pthread_mutex_lock(&w->lock);
	got = w->next < w->n;
	*k = w->next;
	if (got)
		w->next++;
	pthread_mutex_unlock(&w->lock);
	return got;
}
