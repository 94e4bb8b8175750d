package caption

import (
	"reflect"
	"testing"
)

// TestSentences: the sentence that describes the photo first, in both
// scripts, with a dateline joined to it and an agency's background
// sentence apart.
func TestSentences(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"a describing sentence and a background one",
			"People queue for water in Al Kalbiyah, Syria, May 3, 2018. The war that began in 2011 has killed hundreds of thousands of people. REUTERS/Omar Sanadiki",
			[]string{"People queue for water in Al Kalbiyah, Syria, May 3, 2018.", "The war that began in 2011 has killed hundreds of thousands of people.", "REUTERS/Omar Sanadiki"}},
		{"a dateline of its own",
			"HASAKA, Syria. Christian fighters man a checkpoint. Syria's conflict has killed more than 300,000 people.",
			[]string{"HASAKA, Syria. Christian fighters man a checkpoint.", "Syria's conflict has killed more than 300,000 people."}},
		{"an abbreviation ends no sentence", "Smoke rises over Douma on Feb. 20, 2018",
			[]string{"Smoke rises over Douma on Feb. 20, 2018"}},
		{"Arabic: the photo's sentence first",
			"قتل مئات الآلاف منذ عام 2011. وفي هذه الصورة نرى طابوراً للماء في حلب.",
			[]string{"وفي هذه الصورة نرى طابوراً للماء في حلب.", "قتل مئات الآلاف منذ عام 2011."}},
		{"Arabic: the first sentence when none says so",
			"دمار جراء غارة على إدلب. وأودت الحرب منذ 2011 بحياة مئات الآلاف.",
			[]string{"دمار جراء غارة على إدلب.", "وأودت الحرب منذ 2011 بحياة مئات الآلاف."}},
		{"nothing", "  ", nil},
	} {
		if got := Sentences(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Sentences = %q, want %q", c.name, got, c.want)
		}
	}
}
