/*
 * handlers.h - the v1 API handlers and their rows of the route table.
 *
 * API_V1_ROUTES expands to the route table rows of the REST API v1 (see
 * api/openapi.yaml); routes.c splices it into api_routes.
 */
#ifndef CONCLAVE_HANDLERS_H
#define CONCLAVE_HANDLERS_H

#include "api/api.h"

#define API_V1_ROUTES

#endif
