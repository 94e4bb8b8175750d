#!/usr/bin/env bash
# Makes the JPEG fixtures of imagemeta's tests with exiftool (Debian
# libimage-exiftool-perl) from a generated plain JPEG. Run from this
# folder: bash fixtures.sh. The fixtures are committed; the tests do not
# need exiftool.
set -euo pipefail
cd "$(dirname "$0")"
command -v exiftool >/dev/null || { echo "fixtures.sh: exiftool is needed (apt-get install libimage-exiftool-perl)" >&2; exit 1; }
go run basejpeg.go > base.jpg
et() { exiftool -q -overwrite_original "$@"; }
fresh() { cp base.jpg "$1"; }

caption='Internally displaced Syrian children stand near their tent in Ras al-Ain, Syria January 22, 2017. (Photo by Rodi Said/Reuters)'

# Every IIM field, declared UTF-8 (1:90), with Arabic and accented text.
fresh iptc-utf8.jpg
et -charset iptc=UTF8 -IPTC:CodedCharacterSet=UTF8 \
  -IPTC:Caption-Abstract="$caption" -IPTC:ObjectName="SYRIA-CONFLICT/DISPLACED" \
  -IPTC:By-line="Rodi Said" -IPTC:Credit="REUTERS" -IPTC:Source="Reuters" \
  -IPTC:City="Ras al-Ain" -IPTC:Sub-location="a camp for displaced people" -IPTC:Province-State="Hasakah" \
  -IPTC:Country-PrimaryLocationCode="SYR" -IPTC:Country-PrimaryLocationName="Syria" \
  -IPTC:Keywords="displaced" -IPTC:Keywords="رأس العين" \
  -IPTC:DateCreated=2017:01:22 -IPTC:TimeCreated=10:15:00+03:00 iptc-utf8.jpg

# IIM with no 1:90: Latin-1 bytes, as older agency systems write.
fresh iptc-latin1.jpg
et -charset iptc=Latin -IPTC:Caption-Abstract="A fighter in Aïn Issa, Syria, June 5, 2016." \
  -IPTC:By-line="Zoé Ménard" -IPTC:City="Aïn Issa" -IPTC:Credit="AFP" iptc-latin1.jpg

# XMP only, with the extension's location structures.
fresh xmp-only.jpg
et -XMP-dc:Description="Smoke rises over Kobani, seen from Suruc, Turkey, October 8, 2014." \
  -XMP-dc:Creator="Yannis Behrakis" -XMP-dc:Creator="Second Author" -XMP-dc:Title="TURKEY-SYRIA" -XMP-dc:Subject="smoke" \
  -XMP-photoshop:Credit="REUTERS" -XMP-photoshop:Source="Reuters" -XMP-photoshop:City="Suruc" \
  -XMP-photoshop:State="Sanliurfa" -XMP-photoshop:Country="Turkey" -XMP-photoshop:DateCreated="2014-10-08T14:20:00+03:00" \
  -XMP-iptcCore:Location="Mursitpinar border crossing" -XMP-iptcCore:CountryCode="TR" \
  '-XMP-iptcExt:LocationShown={City=Kobani,CountryName=Syria,CountryCode=SYR,ProvinceState=Aleppo}' \
  '-XMP-iptcExt:LocationCreated={City=Suruc,CountryName=Turkey,CountryCode=TUR}' xmp-only.jpg

# IIM and XMP that disagree on the city: with no IPTC digest, with a
# digest that matches the IIM (the XMP is in step: it wins), and with a
# stale digest (a program changed the IIM after the XMP: IIM wins).
for v in nodigest match stale; do
  fresh "conflict-$v.jpg"
  et -IPTC:Caption-Abstract="Caption from IIM, Aleppo, Syria, May 1, 2013." -IPTC:City="Aleppo" \
     -XMP-dc:Description="Caption from XMP, Gaziantep, Turkey, May 1, 2013." -XMP-photoshop:City="Gaziantep" \
     -XMP-photoshop:Credit="XMP Credit" "conflict-$v.jpg"
done
et -Photoshop:IPTCDigest= conflict-nodigest.jpg
et -Photoshop:IPTCDigest=new conflict-match.jpg
et -Photoshop:IPTCDigest=00112233445566778899aabbccddeeff conflict-stale.jpg

# GPS in each hemisphere, with the capture time and its offset, and a
# caption.
gps() { # name lat latref lon lonref
  fresh "$1"
  et -EXIF:GPSLatitude="$2" -EXIF:GPSLatitudeRef="$3" -EXIF:GPSLongitude="$4" -EXIF:GPSLongitudeRef="$5" \
     -EXIF:DateTimeOriginal="2016:12:13 15:04:05" -EXIF:OffsetTimeOriginal="+03:00" \
     -EXIF:Make="Canon" -EXIF:Model="Canon EOS 5D Mark III" \
     -IPTC:Caption-Abstract="A test picture made at $2 $3, $4 $5 on December 13, 2016. (Photo by Test Camera/Fixtures)" "$1"
}
gps gps-ne.jpg 36.2021 N 37.1343 E
gps gps-nw.jpg 40.7128 N 74.0060 W
gps gps-se.jpg 33.8688 S 151.2093 E
gps gps-sw.jpg 34.6037 S 58.3816 W

# A caption the file's metadata contradicts: the IPTC city and the GPS
# are in Turkey (near Gaziantep), and the camera's clock is 40 days on.
fresh check-abroad.jpg
et -IPTC:Caption-Abstract="Men walk through rubble in Aleppo, Syria, December 13, 2016. REUTERS/Abdalrhman Ismail" \
   -IPTC:City="Gaziantep" -IPTC:Country-PrimaryLocationCode="TUR" -IPTC:Country-PrimaryLocationName="Turkey" \
   -EXIF:GPSLatitude=37.066 -EXIF:GPSLatitudeRef=N -EXIF:GPSLongitude=37.383 -EXIF:GPSLongitudeRef=E \
   -EXIF:DateTimeOriginal="2017:01:22 09:00:00" check-abroad.jpg

# A file an Arabic desk filled: IPTC city and country in Arabic, GPS 1 km
# east of Aleppo's point, the caption in English. They agree.
fresh check-arabic.jpg
et -charset iptc=UTF8 -IPTC:CodedCharacterSet=UTF8 \
   -IPTC:Caption-Abstract="Boys play football in a street of Aleppo, Syria, March 3, 2017. REUTERS/Omar Sanadiki" \
   -IPTC:City="حلب" -IPTC:Country-PrimaryLocationName="سوريا" \
   -EXIF:GPSLatitude=36.20601 -EXIF:GPSLatitudeRef=N -EXIF:GPSLongitude=37.16357 -EXIF:GPSLongitudeRef=E \
   -EXIF:DateTimeOriginal="2017:03:03 11:00:00" check-arabic.jpg

# Orientation 6 (the camera was turned: rotate 90° clockwise to show it),
# EXIF in big-endian byte order, no offset.
fresh orient-6.jpg
et -ExifByteOrder=Big-endian -EXIF:Orientation#=6 -EXIF:DateTimeOriginal="2013:05:01 09:00:00" \
   -XMP-dc:Description="A boy stands in a street of Douma, Syria, May 1, 2013. REUTERS/Bassam Khabieh" orient-6.jpg

# Bad files: cut inside the metadata, a segment length running past the
# end, and a PNG named .jpg.
head -c 200 iptc-utf8.jpg > bad-truncated.jpg
python3 - <<'PY'
b = bytearray(open("iptc-utf8.jpg", "rb").read())
i = b.index(b"\xff\xed")          # the APP13 segment
b[i+2:i+4] = b"\xff\xf0"          # a length far past the end of the file
open("bad-segment.jpg", "wb").write(bytes(b[:i+400]))
PY
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' > bad-notjpeg.jpg
rm -f base.jpg
