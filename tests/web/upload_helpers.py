"""Real files for upload tests: pictures made with Pillow, PDFs with pypdf, and the hostile
files the content check must refuse."""

from __future__ import annotations

import struct
import zlib
from io import BytesIO

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

HTML = b"<html><body><script>alert(document.cookie)</script></body></html>"


def picture(fmt: str, size=(8, 6), **save) -> bytes:
    buffer = BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, format=fmt, **save)
    return buffer.getvalue()


def animated_gif() -> bytes:
    buffer = BytesIO()
    frames = [Image.new("P", (8, 8), i) for i in range(3)]
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=100)
    return buffer.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    """A small PNG whose header declares `width` × `height` (a decompression bomb's shape)."""
    data = bytearray(picture("PNG", (1, 1)))
    ihdr = b"IHDR" + struct.pack(">II", width, height) + bytes(data[24:29])  # type + fields
    data[12:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(ihdr) & 0xFFFFFFFF)
    return bytes(data)


def pdf(*, js=False, open_action=None, attachment=False, password="", link: bytes = b"") -> bytes:
    writer = PdfWriter()
    page = writer.add_blank_page(width=200, height=200)
    if link:  # a link annotation; a byte string is written in hex, hidden from a byte scan
        action = DictionaryObject(
            {NameObject("/S"): NameObject("/URI"), NameObject("/URI"): ByteStringObject(link)}
        )
        annotation = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/Link"),
                NameObject("/Rect"): ArrayObject([NumberObject(n) for n in (0, 0, 50, 50)]),
                NameObject("/A"): action,
            }
        )
        page[NameObject("/Annots")] = ArrayObject([writer._add_object(annotation)])
    if js:  # a document-level script, run on opening
        script = DictionaryObject(
            {
                NameObject("/S"): NameObject("/JavaScript"),
                NameObject("/JS"): TextStringObject("app.alert('hi');"),
            }
        )
        names = ArrayObject([TextStringObject("hello"), writer._add_object(script)])
        writer._root_object[NameObject("/Names")] = DictionaryObject(
            {NameObject("/JavaScript"): DictionaryObject({NameObject("/Names"): names})}
        )
    if open_action is not None:
        writer._root_object[NameObject("/OpenAction")] = open_action
    if attachment:
        writer.add_attachment("notes.txt", b"hello")
    if password:
        writer.encrypt(password)
    buffer = BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def launch_action() -> DictionaryObject:
    return DictionaryObject(
        {
            NameObject("/S"): NameObject("/Launch"),
            NameObject("/F"): TextStringObject("calc.exe"),
        }
    )


def upload(name: str, data: bytes, content_type: str = "image/png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def png_upload(name: str = "plan.png") -> SimpleUploadedFile:
    return upload(name, picture("PNG"))
