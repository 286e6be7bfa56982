#ifndef SHELF_IMAGE_CODECS_H
#define SHELF_IMAGE_CODECS_H
/*
 * Why this shim exists: libjpeg reports fatal errors through error_exit, which must not return, and
 * libpng's classic API longjmps. A longjmp that crosses Swift frames is undefined behaviour, so every
 * codec call that can fail runs here, behind a setjmp, and Swift only ever sees a return code and a
 * message. Symbols carry the shelf_ prefix.
 */
#include <stddef.h>
#include <stdint.h>

#endif
