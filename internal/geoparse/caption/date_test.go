package caption

import "testing"

func TestDate(t *testing.T) {
	tests := []struct {
		name, text, want string
		precision        string
	}{
		{"month day, year", "Boys play in Aleppo, Syria September 19, 2016. REUTERS/Name", "2016-09-19", Day},
		{"on month day", "A man walks in Homs on February 5, 2016. (Photo by A B/AFP)", "2016-02-05", Day},
		{"day month year", "Soldiers walk in Aleppo, Syria, 19 September 2016. EPA/NAME", "2016-09-19", Day},
		{"abbreviated with dot", "Fighters rest in Azaz, Sept. 19, 2016. (AP Photo/Name)", "2016-09-19", Day},
		{"abbreviated no dot", "People in Azaz, Syria, Nov 2, 2016. REUTERS/Name", "2016-11-02", Day},
		{"ordinal", "A fighter in Aleppo, Syria June 17th 2013. REUTERS/Name", "2013-06-17", Day},
		{"made available is weak", "A photo made available on 5 March 2016 shows a man in Aleppo, Syria, 4 March 2016. EPA/NAME", "2016-03-04", Day},
		{"ordinal with comma", "A fighter in Aleppo on the 3rd of March, 2013.", "2013-03-03", Day},
		{"month year", "Rebels walk in Aleppo March 2013. REUTERS/Name", "2013-03", Month},
		{"month comma year", "Rebels walk in Aleppo in March, 2013.", "2013-03", Month},
		{"misspelt february", "Fighters in Deir al-Zor Febuary 17, 2014. REUTERS/Name", "2014-02-17", Day},
		{"misspelt august", "A girl in Harem, Syria Agust 3, 2013. REUTERS/Name", "2013-08-03", Day},
		{"misspelt july, closer to july by its start", "Refugees who fled in Jule, 2015 arrive at the border gate.", "2015-07", Month},
		{"misspelt september", "A man in Idlib Septmber 3, 2015.", "2015-09-03", Day},
		{"all caps dateline", "ALEPPO, SYRIA - DECEMBER 13: People wait on December 13, 2016 in Aleppo.", "2016-12-13", Day},
		{"a comma parts the date from a capture", "A damaged helicopter is seen at Taftanaz airport, which was captured by rebels, January 11, 2013. REUTERS/Abdalghne Karoof", "2013-01-11", Day},
		{"weekday", "In this Sunday, Feb. 18, 2018 photo, Syrians walk in Douma.", "2018-02-18", Day},
		{"iso", "Syrians dig in Aleppo, 2016-04-28. (AFP/Name)", "2016-04-28", Day},
		{"slash day first", "Rebels in Douma, 17/05/2015.", "2015-05-17", Day},
		{"slash month first", "Rebels in Douma, 5/17/2015.", "2015-05-17", Day},
		{"slash ambiguous is read day first", "Rebels in Douma, 03/04/2015.", "2015-04-03", Day},
		{"archive field, day first", "Fighters pose in Raqqa. Date : 06/08/2012", "2012-08-06", Day},
		{"dash and short slash date", "A man reaches Homs. – 7/2/2014", "2014-02-07", Day},
		{"comma after the month", "Rebels walk in Aleppo, Syria, October, 15, 2012. REUTERS/Name", "2012-10-15", Day},
		{"late before a day", "Smoke above Kobani, Syria, on late November 17, 2014.", "2014-11-17", Day},
		{"late month is the photo's", "Fighters in Kobani in late November 2014.", "2014-11", Month},
		{"in this photo beats the story's date", "In this Sunday, Feb. 8, 2015 photo, a man walks past a building hit on January 12, 2015, in Douma.", "2015-02-08", Day},
		{"AP file photo", "In this Aug. 29, 2012 file photo, a boy stands in a house destroyed in an airstrike on August 15, 2012, in Azaz.", "2012-08-29", Day},
		{"captured on is the story's", "Rebels walk in Harem, Syria, November 2, 2013. The town, captured by rebels on 25 December 2012, is shelled daily.", "2013-11-02", Day},
		{"slash equal day and month", "Rebels in Douma, 04/04/2015.", "2015-04-04", Day},
		{"dots", "Rebels in Douma, 17.05.2015.", "2015-05-17", Day},
		{"year only", "A view of Aleppo in 2013. REUTERS/Name", "2013", Year},
		{"no date", "Syrian President Bashar al-Assad meets officials in Damascus. SANA/Handout via REUTERS", "", ""},
		{"since mid-year is background", "Since mid-2012, Aleppo has been divided. A girl on July 12, 2016.", "2016-07-12", Day},
		{"background first", "Since mid-2012, Aleppo has been divided between government and rebels.", "", ""},
		{"war began in", "A boy in Homs, March 3, 2014, in the war that began in 2011.", "2014-03-03", Day},
		{"captured is background", "Islamic State captured Palmyra on May 21, 2015. A view of Palmyra, October 6, 2015.", "2015-10-06", Day},
		{"picture taken wins", "SDF fighters in Tabqa, after it was captured on May 10, 2017. Picture taken May 11, 2017. REUTERS/Name", "2017-05-11", Day},
		{"release date loses to photo date", "A handout picture released on March 24, 2016 shows troops near Palmyra, March 23, 2016.", "2016-03-23", Day},
		{"release date alone", "A handout picture released by SANA on March 24, 2016 shows troops near Palmyra.", "2016-03-24", Day},
		{"provided by is not background", "A man in Zabadani, in this picture provided by SANA on April 20, 2017.", "2017-04-20", Day},
		{"range start", "An exhibition from March 2013 to May 2014 in Aleppo on June 2, 2014.", "2014-06-02", Day},
		{"invalid day", "A man in Idlib, February 30, 2015.", "2015-02", Month},
		{"may the verb", "Rebels may leave Aleppo in 2016.", "2016", Year},
		{"number is not a year", "More than 280,000 people have died since 2011 in Syria.", "", ""},
		{"leap day", "A man in Idlib, February 29, 2016.", "2016-02-29", Day},
		{"a verb at the clause's start", "A photo shows a baby who later died of hunger-related illness on Jan. 11, 2014 in Yarmouk.", "", ""},
		{"until, far back", "People flooded into the streets of Homs. The city was contested until the majority of the rebels were allowed to leave in May 2014.", "", ""},
		{"a story's year", "Shimmering on the horizon are the white boxes of the Azraq camp. The camp opened in 2014.", "", ""},
		{"the dateline's slot keeps its date", "Men flee Ariha, after insurgent groups seized the area in Idlib province May 29, 2015. REUTERS/Name", "2015-05-29", Day},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse(tt.text).Date
			if d.String() != tt.want || d.Precision != tt.precision {
				t.Errorf("Parse(%q).Date = %q (%s), want %q (%s)", tt.text, d, d.Precision, tt.want, tt.precision)
			}
		})
	}
}

func TestMonthOf(t *testing.T) {
	tests := map[string]int{"january": 1, "jan": 1, "sept": 9, "sep": 9, "dec": 12, "febuary": 2,
		"feburary": 2, "agust": 8, "ocotber": 10, "octobre": 10, "may": 5, "ma": 0, "mayor": 0,
		"junior": 0, "syria": 0, "marsh": 3, "april": 4}
	for word, want := range tests {
		if got := monthOf(word); got != want {
			t.Errorf("monthOf(%q) = %d, want %d", word, got, want)
		}
	}
}
