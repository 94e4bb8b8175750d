package caption

import "testing"

func TestCredit(t *testing.T) {
	tests := []struct {
		name, text, photographer, agency string
	}{
		{"photo by name/agency", "A man in Homs. (Photo by Bassam Khabieh/Reuters)", "Bassam Khabieh", "Reuters"},
		{"a handout's provider in the text", "A handout picture released by SANA shows damaged buildings in Aleppo.", "", "SANA"},
		{"a provider named after a comma", "In this photo released by the Syrian official news agency, SANA, a soldier fires in Maaloula.", "", "SANA"},
		{"a provider spelled out, then a date", "This photo provided by the Syrian Arab News Agency on May 2, 2015 shows a street in Homs.", "", "SANA"},
		{"a provider that is no known agency", "This picture provided by a local activist shows smoke over Douma, Syria.", "", ""},
		{"a credit of its own beats the provider", "A photo released by SANA shows Homs, Syria, May 2, 2015. REUTERS/Omar Sanadiki", "Omar Sanadiki", "Reuters"},
		{"an organisation employs the photographer", "Children in a camp near Idlib, 2016. Photograph: Karl Schembri/Norwegian Refugee Council", "Karl Schembri", "Norwegian Refugee Council"},
		{"©UNICEF/Name", "Children queue for water in Aleppo, Syria. ©UNICEF/Al-Issa", "Al-Issa", "UNICEF"},
		{"ICRC/Name", "A man sits in Homs, Syria. ICRC/Ibrahim Malla", "Ibrahim Malla", "ICRC"},
		{"a known source alone", "Volunteers distribute aid in Douma, Syria, 2016. SARC", "", "SARC"},
		{"opening parenthesis lost", "Soldiers in Deir ez-Zor, in a photo released by the state news agency. SANA via AP)", "", "AP"},
		{"outlet, via AP, File)", "A man walks in Raqqa. Arab 24 network, via AP, File)", "", "AP"},
		{"Agence France-Presse spelled out", "People walk in Aleppo, Syria, March 1, 2013. Agence France-Presse", "", "AFP"},
		{"(AFP/Getty Images)", "Smoke rises over Kobani (AFP/Getty Images)", "", "AFP"},
		{"a photo agency is no one's name", "Refugees at the Zaatari camp, Jordan, 2014. Jordan Pix/Getty Images", "", "Jordan Pix"},
		{"Name/unknown outlet", "Refugees in the Domiz camp...Photo by Younes Mohammad/Metrography", "Younes Mohammad", "Metrography"},
		{"Copyright photo:", "Refugees from Kobani. Suruc, 18 October 2014. Copyright photo: Jodi Hilton", "Jodi Hilton", ""},
		{"Source without a colon", "Taken on 2015-12-03 Source NorthernStork/twitter", "", "NorthernStork"},
		{"a distributor after via", "People flee Nawa. Credit: Nawa Media Office via Storyful", "", "Storyful"},
		{"satellite imagery company", "A pipeline burns. (Photo: Digital Globe / AP via the Telegraph)", "", "AP"},
		{"outlet's source photo", "Bombing seen from Al-Ramtha. (Roya source photo)", "", "Roya"},
		{"wire credit before notes", "Supporters in Latakia on August 1, 2013. REUTERS/SANA/Handout via Reuters (SYRIA – Tags: CONFLICT) ATTENTION EDITORS – THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY. – RTX127Q3", "", "Reuters"},
		{"photo by name only", "A fighter in Aleppo, August 21, 2013. (Photo by James Lawler Duggan)", "James Lawler Duggan", ""},
		{"AFP Photo normalised", "A couple in Homs. (Photo by Joseph Eid/AFP Photo)", "Joseph Eid", "AFP"},
		{"REUTERS/Name", "A boy in Douma, Syria March 13, 2016. REUTERS/Bassam Khabieh", "Bassam Khabieh", "Reuters"},
		{"a wire credit before the caption", "HASAKA, Syria. REUTERS/Name Surname Christian fighters man a checkpoint in the town of Tel Tamr.", "Name Surname", "Reuters"},
		{"© and a picture number", "Children in Aleppo, 2016. © UNICEF/UN012345/Al-Issa", "Al-Issa", "UNICEF"},
		{"© an organisation", "Men in Atareb, Syria. 18 November 2017. © Syria Civil Defence", "", "Syrian Civil Defence"}, // one agency under its names (issue 66)
		{"an acronym beside Handout", "A convoy enters Rastan, Syria, 31 March 2017. SARC/Handout", "", "SARC"},
		{"an archive photo, unbracketed", "Girls walk in Manbij, Syria, Dec. 28, 2018. AP Photo/Hussein Malla, File", "Hussein Malla", "AP"},
		{"a handout via an agency's TV", "Fighters in Zabadani, Syria, July 11, 2015. REUTERS/Hezbollah media office/Handout via Reuters TV", "", "Reuters"},
		{"Name/Reuters", "A boy in Douma, Syria March 13, 2016. Bassam Khabieh/Reuters", "Bassam Khabieh", "Reuters"},
		{"no full stop before credit", "A boy in Douma, Syria March 13, 2016 REUTERS/Bassam Khabieh", "Bassam Khabieh", "Reuters"},
		{"(AFP Photo/Name)", "A view of Raqqa, 2019. (AFP Photo/Delil Souleiman)", "Delil Souleiman", "AFP"},
		{"AFP PHOTO / NAME", "Men in Aleppo on September 24, 2016. / AFP PHOTO / THAER MOHAMMED", "Thaer Mohammed", "AFP"},
		{"AFP / mixed case", "Troops in Aleppo on December 13, 2016. / AFP / George OURFALIAN", "George Ourfalian", "AFP"},
		{"Name/AFP/Getty Images", "Smoke over Arbin, 2018. (Photo by ABDULMONAM EASSA/AFP/Getty Images)", "Abdulmonam Eassa", "AFP"},
		{"photo credit should read", "Smoke over Arbin. (Photo credit should read ZEIN AL-RIFAI/AFP/Getty Images)", "Zein Al-Rifai", "AFP"},
		{"AP Photo/Name", "Syrians in Douma. (AP Photo/Hassan Ammar)", "Hassan Ammar", "AP"},
		{"AP Photo/Name, File", "Syrians in Aleppo. (AP Photo/Hassan Ammar, File)", "Hassan Ammar", "AP"},
		{"AP Photo alone", "Protesters in Kafranbel, April 27, 2012. (AP Photo)", "", "AP"},
		{"via AP", "Rescuers in Saqba. (Syrian Civil Defense White Helmets via AP)", "", "AP"},
		{"SANA via AP", "Troops in Palmyra. (SANA via AP)", "", "AP"},
		{"handout", "Troops near Palmyra. REUTERS/SANA/Handout via Reuters", "", "Reuters"},
		{"handout without via", "Soldiers at Kuweires, 2015. REUTERS/SANA/Handout", "", "Reuters"},
		{"stringer", "Fighters in Deraa, 2014. REUTERS/Stringer", "", "Reuters"},
		{"stringer file photo", "Fighters parade in Raqqa. REUTERS/Stringer/File Photo", "", "Reuters"},
		{"reuters tv", "Syrians in Madaya, in this still image taken from a video. REUTERS/Reuters TV", "", "Reuters"},
		{"source then handout", "Children in Rastan, 2012. REUTERS/Shaam News Network/Handout", "", "Reuters"},
		{"EPA/NAME", "Soldiers in Aleppo, 22 December 2016. EPA/YOUSSEF BADAWI", "Youssef Badawi", "EPA"},
		{"EPA-EFE/NAME", "Aid in Daraa, 15 July 2017. EPA-EFE/MOHAMMED BADRA", "Mohammed Badra", "EPA"},
		{"Xinhua", "Ruins in Aleppo. (Xinhua/Ammar Safarjalani)", "Ammar Safarjalani", "Xinhua"},
		{"Anadolu via Getty", "A man in Idlib. (Photo by Mohammed Dahman/Anadolu Agency/Getty Images)", "Mohammed Dahman", "Anadolu Agency"},
		{"NurPhoto via Getty", "A street in Idlib. (Photo by Jawad al Rifai/NurPhoto via Getty Images)", "Jawad al Rifai", "NurPhoto"},
		{"picture alliance", "Rubble in Binnish. (Photo by Anas Alkharboutli/picture alliance via Getty Images)", "Anas Alkharboutli", "dpa"},
		{"Getty alone", "A boy at Rukban. (Photo by Mohammad Ali/Getty Images)", "Mohammad Ali", "Getty Images"},
		{"Associated Press", "A boy in Aleppo. (Photo by Hassan Ammar/Associated Press)", "Hassan Ammar", "AP"},
		{"lower-case surname", "Rescuers in Atareb. / AFP PHOTO / Omar haj kadour", "Omar Haj Kadour", "AFP"},
		{"TPX notice after credit", "A man in Douma, Syria. REUTERS/Bassam Khabieh TPX IMAGES OF THE DAY", "Bassam Khabieh", "Reuters"},
		{"notice before credit", "A man in Douma. ATTENTION EDITORS - THIS PICTURE WAS PROVIDED BY A THIRD PARTY. REUTERS/Stringer", "", "Reuters"},
		{"photo colon", "A man in Idlib. Photo: Reuters", "", "Reuters"},
		{"known outlet acronym", "Rescuers in Qamishli. (Photo by Delil Souleiman/ANHA)", "Delil Souleiman", "Hawar News"},
		{"unknown outlet acronym", "Rescuers in Idlib. (Photo by Ahmad Rahhal/SMART)", "Ahmad Rahhal", "SMART"},
		{"no credit", "A man walks in Aleppo, Syria, 2016.", "", ""},
		{"angle brackets", "A boy in Douma, Syria, May 18, 2015. <AP Photo/Hassan Ammar>", "Hassan Ammar", "AP"},
		{"name / agency / date", "A fighter in Jobar, Damascus. Bassam Khabieh / Reuters / May 9, 2014", "Bassam Khabieh", "Reuters"},
		{"name glued to the last sentence", "Children wait for food in Maarat al-Numan, Idlib, Syria.Khalil Ashawi", "Khalil Ashawi", ""},
		{"a full stop and a name is no credit", "Children wait for food in Idlib, Syria. Khalil Ashawi", "", ""},
		{"organisation alone", "Refugees receive supplies in Arsal, Lebanon. (Photo by UNHCR)", "", "UNHCR"},
		{"brand after a spaced slash", "Fighters stand in the town of Tal Abyad, Syria / TRTWorld", "", "TRTWorld"},
		{"source: name/twitter", "Smoke over Kafr Nabl, Idlib, Syria. Source: Hadi Abdullah/Twitter", "Hadi Abdullah", "Twitter"},
		{"photo credit: capitals", "Children in Manbij, Syria, on August 14, 2016. (photo credit: DELIL SOULEIMAN)", "Delil Souleiman", ""},
		{"archive field surname first", "Damaged buildings in Deir ez-Zor. Photographer : AL-KHATIEB, Mohammed", "Mohammed Al-Khatieb", ""},
		{"outlet acronym first", "A fighter runs for cover in Aleppo, Syria. (MEE/Zouhir al-Shimale)", "Zouhir al-Shimale", "MEE"},
		{"photo for outlet by name", "Children in the camp in Kilis, Turkey.\nPhoto for Washington Post by Liz Sly", "Liz Sly", "The Washington Post"},
		{"dateline agency loses to the credit with a name", "Qamishli (Syria), May 5 (EFE) - A fighter in Amuda, on May 5, 2015. EFE/Youssef Rabih", "Youssef Rabih", "EFE"},
		{"two acronyms are no credit", "Fighters of the Kurdish-led alliance SDF/YPG", "", ""},
		{"aside in parentheses is no credit", "Fighters of the People's Protection Units (YPG) in Kobani. REUTERS/Rodi Said", "Rodi Said", "Reuters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse(tt.text).Credit
			if c.Photographer != tt.photographer || c.Agency != tt.agency {
				t.Errorf("Parse(%q).Credit = %+v, want {%q %q}", tt.text, c, tt.photographer, tt.agency)
			}
		})
	}
}

func TestCreditSpanHoldsNoPlaces(t *testing.T) {
	c := Parse("A boy in Douma, Syria March 13, 2016. REUTERS/Bassam Khabieh")
	if got := c.Text[c.CreditStart:c.CreditEnd]; got != "REUTERS/Bassam Khabieh" {
		t.Fatalf("credit span = %q", got)
	}
	for _, m := range c.Mentions {
		if m.Start >= c.CreditStart {
			t.Errorf("mention %q inside the credit", m.Text)
		}
	}
}

// A handout's provider named in the text is its credit, and never a place
// ("SANA" spells a village too).
func TestProviderSpanHoldsNoPlaces(t *testing.T) {
	c := Parse("A handout photograph released by SANA shows damaged buildings, Syria, May 2, 2015.")
	if got := c.Text[c.CreditStart:c.CreditEnd]; got != "SANA" {
		t.Fatalf("credit span = %q", got)
	}
	for _, m := range c.Mentions {
		if m.Text == "SANA" {
			t.Errorf("mention %q inside the credit", m.Text)
		}
	}
}
