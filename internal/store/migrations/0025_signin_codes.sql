-- One-time codes the server's operator gives an editor (syriamap users
-- code NAME) to sign in from a new browser when guessers from elsewhere
-- have spent the name's budget for unknown browsers (auth.Brake): by the
-- SHA-256 of the code, for one sign-in, until it expires.
CREATE TABLE signin_codes (
	hash    TEXT PRIMARY KEY,
	user    TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
	expires TEXT NOT NULL
);
