/* libtesseract's C API and leptonica's pixel type, for SpineReading.TesseractEngine. */
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
