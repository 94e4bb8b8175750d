module github.com/syriamap/syriamap

go 1.26.0

require (
	github.com/paulmach/orb v0.14.0
	golang.org/x/text v0.44.0
)

require go.mongodb.org/mongo-driver/v2 v2.5.0 // indirect
