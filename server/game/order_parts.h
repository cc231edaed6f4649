/*
 * order_parts.h - sealed orders given in keyed parts: the input that sets or
 * deletes one member of a seat's held order, built from the order the game
 * holds now.
 *
 * A window whose engine_window has `parts` takes its order in parts: the
 * order is a JSON object and its top-level members are the parts. Setting a
 * part makes the whole order as it would become (the held order, or {} when
 * none is held, with that member set) and gives it as an ordinary ORDER
 * input, so the event log stores whole orders, the engine checks the whole
 * order with the ruleset's check_order, and receipts and replays work as for
 * any order. Deleting a part does the same without that member; deleting
 * the last one gives a SYSTEM withdraw instead, so a seat with no parts
 * holds no order (as before its first part) and is again waited on.
 *
 * The actor calls this on its own copy of the game while it applies the
 * input, so two part changes of one seat apply one after the other, each to
 * the order the other left.
 */
#ifndef CONCLAVE_ORDER_PARTS_H
#define CONCLAVE_ORDER_PARTS_H

#include "common/errors.h"
#include "engine/engine.h"

#include <jansson.h>

typedef enum order_part_op {
    ORDER_PART_NONE = 0, /* not a part change */
    ORDER_PART_SET,      /* set member key to a value */
    ORDER_PART_DELETE    /* remove member key */
} order_part_op;

#define ORDER_PART_KEY_MAX 64 /* characters in a part key, at most */

/* Whether key may name a part: 1 to ORDER_PART_KEY_MAX characters from
 * [A-Za-z0-9_.-]. */
int order_part_key_ok(const char *key);

/* The input that applies op (with key, and value for a set; value borrowed)
 * to seat's order in window of g: *kind ENGINE_ORDER with *payload the
 * whole new order, or ENGINE_SYSTEM with *payload {"action":"withdraw"}
 * when a delete leaves no part. *payload is NEW. Returns SRV_OK, or fills
 * err: SRV_CONFLICT when the window is not open or takes whole orders
 * only, SRV_NOT_FOUND when a delete names a part the order lacks,
 * SRV_TOO_LARGE (field key) when the order would outgrow the ruleset's
 * engine_max_order_bytes, SRV_INTERNAL when memory runs out. The engine
 * still judges the order itself. */
srv_kind order_part_input(const engine_game *g, int seat, const char *window,
                          order_part_op op, const char *key,
                          const json_t *value, engine_input_kind *kind,
                          json_t **payload, srv_error *err);

/* The part keys of an order (a NEW array, sorted); [] for NULL. NULL only
 * when memory runs out. */
json_t *order_part_keys(const json_t *order);

#endif
