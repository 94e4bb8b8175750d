package caption

import (
	"fmt"
	"strings"
	"testing"
)

// mentionOf returns the mention whose text is name, or fails.
func mentionOf(t *testing.T, c Caption, name string) Mention {
	t.Helper()
	for _, m := range c.Mentions {
		if m.Text == name {
			return m
		}
	}
	var texts []string
	for _, m := range c.Mentions {
		texts = append(texts, m.Text)
	}
	t.Fatalf("no mention %q in %q (mentions: %q)", name, c.Text, texts)
	return Mention{}
}

func TestMentionRoles(t *testing.T) {
	tests := []struct {
		name, text, mention string
		role                Role
		cue, designator     string
	}{
		{"in", "Children stand near their tent in Ras al-Ain province, Syria January 22, 2017.", "Ras al-Ain", Where, "in", "province"},
		{"fled is origin", "Children who fled Raqqa city stand near their tent in Ras al-Ain.", "Raqqa", Origin, "fled", "city"},
		{"displaced from", "Families displaced from Deir ez-Zor arrive in Ain Issa.", "Deir ez-Zor", Origin, "from", ""},
		{"a possessor's countryside", "A girl sits in a camp in Idlib's northern countryside, Syria.", "Idlib", Where, "in", "countryside"},
		{"a list shares its cue", "Buses carrying people evacuated from Fouaa and Kefraya arrive in Rashideen.", "Kefraya", Origin, "from", ""},
		{"the province of places left", "A boy evacuated from Foua and Kefraya in the northwestern province of Idlib stands in a hospital in Sayeda Zeinab.", "Idlib", Origin, "from", "province"},
		{"a verb parts a place from those left", "Families evacuated from Foua arrive in Idlib.", "Idlib", Where, "in", ""},
		{"a list shares where", "Men walk in Douma or Harasta, Syria.", "Harasta", Where, "in", ""},
		{"a comma is no list", "Men walk in Douma, eastern Ghouta.", "Ghouta", Context, "", ""},
		{"people who open a caption are no name", "Residents of Wadi Barada ride a bus, northwest of Damascus.", "Wadi Barada", Context, "", ""},
		{"to be evacuated from", "People wait to be evacuated from the Sukkari neighbourhood of Aleppo.", "Sukkari", Where, "from", "neighbourhood"},
		{"seen from", "Smoke rises over Kobani, as seen from Suruc, Turkey.", "Suruc", Where, "seen from", ""},
		{"seen from a hill in", "A jet flies over Kobani as seen from a hill in Tal Hajib village.", "Tal Hajib", Where, "seen from", "village"},
		{"all that is left of", "Rubble is all that is left of the neighbourhood of Karm al-Jabal.", "Karm al-Jabal", Where, "left", "neighbourhood"},
		{"a capitalised district of a city", "Buses wait at Amiriyah District of Aleppo Syria on May 2.", "Amiriyah", Where, "at", "district"},
		{"heading to", "Buses heading to Idlib wait at a checkpoint in Ramouseh.", "Idlib", Target, "to", ""},
		{"a country ends before at", "A refugee waits to cross into Turkey at Akcakale border gate in Sanliurfa province.", "Akcakale", Where, "at", "border"},
		{"frontier is an adjective", "Women walk near the frontier town of Narli in Gaziantep province.", "Narli", Where, "near", "town"},
		{"shelling of", "Smoke rises after the shelling of Douma.", "Douma", Target, "shelling", ""},
		{"participle as adjective", "Soldiers stand in the recently recaptured Jobar neighborhood.", "Jobar", Where, "in", "neighbourhood"},
		{"airstrike hit", "Men carry a boy after an airstrike hit the rebel-held Bustan al-Qasr neighborhood of Aleppo.", "Bustan al-Qasr", Where, "hit", "neighbourhood"},
		{"being evacuated from", "People ride in a bus as they are evacuated from the besieged town of al-Foua.", "al-Foua", Where, "from", "town"},
		{"evacuated from, before", "Families who were evacuated from Darayya arrive in Idlib.", "Darayya", Origin, "from", ""},
		{"Kurdish-majority is not a name", "Syrians walk in the town of Amuda, in the Kurdish-majority Hasakeh province.", "Hasakeh", Where, "in", "province"},
		{"hard-hit is no strike", "Children play in the hard-hit town of Darayya after an offensive.", "Darayya", Where, "in", "town"},
		{"town of", "Actors perform in the rebel-held besieged town of Zamalka, in the Damascus suburbs.", "Zamalka", Where, "in", "town"},
		{"suburbs", "Actors perform in the rebel-held besieged town of Zamalka, in the Damascus suburbs.", "Damascus", Where, "in", "suburbs"},
		{"neighbourhood of", "A man sits in the rebel-held neighbourhood of Sukkari in the northern city of Aleppo.", "Sukkari", Where, "in", "neighbourhood"},
		{"northern city of", "A man sits in the rebel-held neighbourhood of Sukkari in the northern city of Aleppo.", "Aleppo", Where, "in", "city"},
		{"outskirts", "Fighters run in Jobar, on the eastern outskirts of the capital Damascus.", "Damascus", Where, "outskirts", "capital"},
		{"syrian capital", "Fighters run in the Syrian capital Damascus.", "Damascus", Where, "in", "capital"},
		{"countryside", "A man rides in Jarjanaz, in Idlib's countryside.", "Idlib", Where, "in", "countryside"},
		{"near", "Refugees wait near the Oncupinar border crossing.", "Oncupinar", Where, "near", "crossing"},
		{"apposition", "A man walks in Douma, eastern Ghouta, Syria.", "Ghouta", Context, "", ""},
		{"dateline", "ALEPPO, SYRIA - DECEMBER 13: People wait in the Sukkari neighbourhood.", "ALEPPO", Where, "dateline", ""},
		{"camp words on", "Women walk at al-Hol displaced persons camp in Hasaka.", "al-Hol", Where, "at", "camp"},
		{"an article's hyphen before a space", "Men sell bread at a market in Raqqa's Al- Mansour district, 2013.", "Al- Mansour", Where, "in", "district"},
		{"an article's hyphen before a space, lower case", "A photo of the blast in the al- Nuzha neighbourhood.", "Nuzha", Where, "in", "neighbourhood"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mentionOf(t, Parse(tt.text), tt.mention)
			if m.Role != tt.role || m.Cue != tt.cue || m.Designator != tt.designator {
				t.Errorf("%q: role %s, cue %q, designator %q; want %s, %q, %q", tt.mention, m.Role, m.Cue, m.Designator, tt.role, tt.cue, tt.designator)
			}
		})
	}
}

func TestMentionEntities(t *testing.T) {
	tests := []struct {
		name, text, mention string
		entity              Entity
	}{
		{"age makes a person", "Newly-wed couple Nada Merhi, 18, and Hassan Youssef, 27, pose in Homs.", "Hassan Youssef", Person},
		{"title makes a person", "Forces loyal to President Bashar al-Assad advance.", "Bashar al-Assad", Person},
		{"directed by", "Actors perform in a film directed by Humam Husari in Zamalka.", "Humam Husari", Person},
		{"organisation", "A fighter belonging to Jaish al-Islam runs in Jobar.", "Jaish al-Islam", Organisation},
		{"observatory", "Four children were killed, according to the Syrian Observatory for Human Rights.", "Syrian Observatory for Human Rights", Organisation},
		{"event", "Boys play on the first day of Eid al-Fitr in Damascus.", "Eid al-Fitr", Event},
		{"quoted", "A woman stands during “I Love Damascus” marathon at Umayyad Square.", "I Love Damascus", Quoted},
		{"country", "An exhibition in Turkey.", "Turkey", Country},
		{"nations joined by a hyphen", "Trucks wait near the Syrian-Turkish border, March 11, 2014.", "Syrian-Turkish", Nationality},
		{"a state's name is no country", "Fighters of the Islamic State in Iraq and the Levant withdrew from Azaz.", "Iraq", Organisation},
		{"and its other country", "Fighters of the Islamic State of Iraq and Syria withdrew from Azaz.", "Syria", Organisation},
		{"a compound adjective", "Civilians arrive at a UN-supervised checkpoint in Homs.", "UN", Modifier},
		{"a place as an adjective", "Fighters of an Idlib-based group rest.", "Idlib", Modifier},
		{"an article's hyphen is still a name", "Fighters stand in Deir ez-Zor.", "Deir ez-Zor", MaybePlace},
		{"nationality", "A Syrian army soldier stands guard.", "Syrian", Nationality},
		{"a place", "A man walks in Douma.", "Douma", MaybePlace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if m := mentionOf(t, Parse(tt.text), tt.mention); m.Entity != tt.entity {
				t.Errorf("%q is %q, want %q", tt.mention, m.Entity, tt.entity)
			}
		})
	}
}

func TestMentionShapes(t *testing.T) {
	c := Parse("Rebels walk in Aleppo's Bustan al-Basha district. A second sentence names Homs.")
	m := mentionOf(t, c, "Aleppo")
	if !m.Possessive {
		t.Errorf("Aleppo's is not possessive")
	}
	mentionOf(t, c, "Bustan al-Basha")
	if h := mentionOf(t, c, "Homs"); h.Sentence != 1 {
		t.Errorf("Homs is in sentence %d, want 1", h.Sentence)
	}
	c = Parse("Children play amid the rubble in Homs' Baba Amr neighbourhood.")
	if !mentionOf(t, c, "Homs").Possessive {
		t.Errorf("Homs' is not possessive")
	}
	// Sept. does not end a sentence, nor does an initial.
	c = Parse("Fighters rest in Azaz, Sept. 19, 2016, near the town of Marea. J. Smith took it.")
	if m := mentionOf(t, c, "Marea"); m.Sentence != 0 {
		t.Errorf("Marea in sentence %d, want 0", m.Sentence)
	}
	// Dates are not names.
	for _, text := range []string{"On March 14, 2016 in the neighbourhood of Jobar.",
		"ISTANBUL, TURKEY - MARCH 15: Syrians gather in Istanbul.", "HOMS, SYRIA - SEPT. 3: Men walk in Homs."} {
		for _, m := range Parse(text).Mentions {
			if strings.HasPrefix(strings.ToLower(m.Text), "march") || strings.HasPrefix(strings.ToLower(m.Text), "sept") {
				t.Errorf("%q: a date became a mention: %+v", text, m)
			}
		}
	}
}

func TestSplit(t *testing.T) {
	doc := "First caption in Aleppo,\nSyria. (Photo by A B/Reuters)\n\n" +
		"Second caption in Homs. (Photo by C D/Reuters)Third caption in Idlib. (Photo by E F/AFP Photo)\r\n\r\n" +
		"A rebel in the People's Protection Units (YPG) stands in Kobani. REUTERS/G H\n\n\n"
	want := []string{
		"First caption in Aleppo, Syria. (Photo by A B/Reuters)",
		"Second caption in Homs. (Photo by C D/Reuters)",
		"Third caption in Idlib. (Photo by E F/AFP Photo)",
		"A rebel in the People's Protection Units (YPG) stands in Kobani. REUTERS/G H",
	}
	got := Split(doc)
	if len(got) != len(want) {
		t.Fatalf("Split gave %d captions, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("caption %d = %q, want %q", i, got[i], want[i])
		}
	}
	// One caption a line with no blank lines between; a background
	// sentence after a credit on the same line stays with its caption.
	got = Split("A man in Homs. REUTERS/A B\nA boy in Idlib. (Photo by C D/AFP) The war began in 2011.\nA girl in Hama. (Photo by E F/AFP)\n \nA woman in Daraa.")
	want = []string{"A man in Homs. REUTERS/A B", "A boy in Idlib. (Photo by C D/AFP) The war began in 2011.", "A girl in Hama. (Photo by E F/AFP)", "A woman in Daraa."}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Split = %q\nwant %q", got, want)
	}
	if got := Split("  \n\n \n"); len(got) != 0 {
		t.Errorf("Split of blank text = %q, want none", got)
	}
}

// TestSubordinateClauses checks which names tell what happened before the
// photo, elsewhere: after "after" or "following" in their sentence, or in
// a clause of killing or wounding up to its comma, brackets and all.
func TestSubordinateClauses(t *testing.T) {
	tests := []struct {
		name, text, mention string
		subordinate         bool
	}{
		{"after", "A woman cries in Idlib after an attack in Khan Sheikhoun.", "Khan Sheikhoun", true},
		{"the main place", "A woman cries in Idlib after an attack in Khan Sheikhoun.", "Idlib", false},
		{"killed in", "Mourners at a funeral in Suruc for fighters killed in Kobani.", "Kobani", true},
		{"a bracket goes on with the clause", "Women in Qamishli mourn fighters who were killed during battles with the Islamic State group (IS) in the city of Manbij.", "Manbij", true},
		{"a comma ends it", "Fighters killed in Kobani, mourned at a cemetery in Suruc.", "Suruc", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mentionOf(t, Parse(tt.text), tt.mention)
			if m.Subordinate != tt.subordinate {
				t.Errorf("%q in %q: subordinate %v, want %v", tt.mention, tt.text, m.Subordinate, tt.subordinate)
			}
		})
	}
}
