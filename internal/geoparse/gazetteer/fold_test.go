package gazetteer

import "testing"

func TestFoldSpellingsMeet(t *testing.T) {
	groups := [][]string{
		{"Kafranbel", "Kafr Nabl", "Kafrnabel", "Kafr-Nabl"},
		{"Douma", "Duma", "Dūmā"},
		{"Ras al-Ain", "Ra's al-'Ayn", "Ras al Ayn", "Ra’s al ‘Ayn", "Ras el-Ein", "Râs el Aïn"},
		{"Bustan Pasha", "Bustan al-Basha", "Bostan Bash"},
		{"Sukkari", "al-Sukkari", "Sukkary", "As-Sukkari"},
		{"Raqqa", "Ar-Raqqah", "Rakka", "Ar Raqqah", "al-Raqqa"},
		{"Deir ez-Zor", "Deir al-Zour", "Dayr az Zawr", "Dair Ezzor", "Deir Ezzor"},
		{"Maarat al-Numan", "Ma'arrat al-Nu'man", "Marat al-Numan", "Ma`arrat an Nu`man", "Maarat an-Nouman"},
		{"Tell Abyad", "Tal Abyad", "Tel Abyad", "Tall Abyaḑ"},
		{"Jabal al-Zawiya", "Jebel Zawiya", "Jabal az-Zawiyah"},
		{"Kafr Sousa", "Kfar Sousa", "Kafar Souseh", "Kafr Susa"},
		{"Ain al-Arab", "Ayn al-Arab", "Ein al-Arab", "'Ayn al 'Arab"},
		{"Qaboun", "Kaboun", "al-Qabun"},
		{"Sheikh Maqsoud", "Shaykh Maqsud", "Ash-Sheikh Maqsoud", "Cheikh Maksoud"},
		{"Idlib", "Idleb", "İdlib"},
		{"Sayyidah Zaynab", "Sayeda Zeinab", "Sayyida Zainab"},
		{"Hama", "Hamah", "Ḩamāh"},
		{"Aleppo", "Aleppo's"},
		{"Yabroud", "Yabrud"},
		{"Khalidiyah", "Khaldieh", "Khalidiya", "al-Khalidiyeh"},
		{"al-Melabiyyah", "Al-Melbieh"},
		{"Hamidiyeh", "Hamidieh", "Hamidiya"},
		// An e before the final -ya is the i of -iya (Reuters' al-Hamdeya).
		{"Hamidiyeh", "al-Hamdeya", "Hamdeyah", "Hamedeyeh"},
		{"Khalidiyah", "Khaldeya"},
		{"رأس العين", "راس العين"},
	}
	for _, g := range groups {
		want := Fold(g[0])
		for _, name := range g[1:] {
			got := Fold(name)
			if got.Skeleton != want.Skeleton || (want.Consonants <= 2 && got.Fine != want.Fine) {
				t.Errorf("Fold(%q) = %+v, want it to meet Fold(%q) = %+v", name, got, g[0], want)
			}
		}
	}
}

func TestFoldKeepsApart(t *testing.T) {
	pairs := [][2]string{
		{"Islam", "Salma"},
		{"Homs", "Hama"},
		{"Deir ez-Zor", "Daraa"},
		{"Idlib", "Aleppo"},
		{"Douma", "Dumayr"},
		{"Raqqa", "Riqama"},
		{"Meyadin", "Midan"},
	}
	for _, p := range pairs {
		a, b := Fold(p[0]), Fold(p[1])
		if a.Skeleton == b.Skeleton && (a.Consonants > 2 || a.Fine == b.Fine) {
			t.Errorf("Fold(%q) and Fold(%q) meet (%+v, %+v); they are different places", p[0], p[1], a, b)
		}
	}
}

func TestFold(t *testing.T) {
	tests := []struct {
		name string
		want Key
	}{
		{"Deir ez-Zor", Key{Fine: "dairzur", Skeleton: "drzr", Consonants: 4}},
		{"Ras al-Ain", Key{Fine: "rasain", Skeleton: "rsan", Consonants: 3}},
		{"Raqqa", Key{Fine: "raka", Skeleton: "rk", Consonants: 2}},
		{"Idlib", Key{Fine: "idlib", Skeleton: "adlb", Consonants: 3}},
		{"Al Bab", Key{Fine: "bab", Skeleton: "bb", Consonants: 2}},
		{"Al", Key{Fine: "al", Skeleton: "al", Consonants: 1}},
		{"", Key{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fold(tt.name); got != tt.want {
				t.Errorf("Fold(%q) = %+v, want %+v", tt.name, got, tt.want)
			}
		})
	}
}
