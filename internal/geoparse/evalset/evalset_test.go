package evalset

import "testing"

func TestCalibrate(t *testing.T) {
	answers := []Answer{
		{Placed: true, Confidence: 0.95, Right: true},
		{Placed: true, Confidence: 0.9, Right: false},
		{Placed: true, Confidence: 0.85, Right: true},
		{Placed: true, Confidence: 0.5, Right: true},
		{Placed: true, Confidence: 0.5, Right: false}, // ties: the wrong one ranks lower, as in score.py
		{Placed: false, Right: false},
		{Placed: true, Confidence: 0.7, Right: true},
		{Placed: true, Confidence: 0.6, Right: true},
		{Placed: true, Confidence: 0.4, Right: true},
		{Placed: true, Confidence: 0.3, Right: true},
	}
	got := Calibrate(answers)
	want := Calibration{Misses: 3, Caught: 1, High: 3, HighRight: 2}
	if got != want {
		t.Errorf("Calibrate = %+v, want %+v", got, want)
	}
	// The fifth is two answers: the unplaced one and the 0.3. With the
	// 0.3 and 0.4 moved up, the wrong 0.5 is next, before the right 0.5.
	answers[8].Confidence, answers[9].Confidence = 0.56, 0.55
	if got := Calibrate(answers); got.Caught != 2 {
		t.Errorf("Calibrate caught %d, want 2 (the unplaced answer and the wrong 0.5)", got.Caught)
	}
}

func TestSkeleton(t *testing.T) {
	for a, b := range map[string]string{"Khan Sheikhoun": "Khan Shaykhun", "Deir el-Zour": "Deir ez-Zor", "Arbeen": "Arbin"} {
		if Skeleton(a) != Skeleton(b) {
			t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q", a, Skeleton(a), b, Skeleton(b))
		}
	}
}
