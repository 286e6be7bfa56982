/* Writes a YCCK (or, with argv[1] = "cmyk-plain", an Adobe-less CMYK) JPEG from raw CMYK on stdin.
 * Pillow cannot write either, so make_fixtures.py builds this with cc. Usage: ycck MODE W H < cmyk > out.jpg */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int w = atoi(argv[2]), h = atoi(argv[3]);
    unsigned char *px = malloc((size_t)w * h * 4);
    if (fread(px, 4, (size_t)w * h, stdin) != (size_t)w * h) return 3;
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, stdout);
    c.image_width = w; c.image_height = h; c.input_components = 4; c.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 95, TRUE);
    if (strcmp(argv[1], "ycck") == 0) jpeg_set_colorspace(&c, JCS_YCCK);
    else { jpeg_set_colorspace(&c, JCS_CMYK); c.write_Adobe_marker = FALSE; }
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = px + (size_t)c.next_scanline * w * 4;
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    return 0;
}
